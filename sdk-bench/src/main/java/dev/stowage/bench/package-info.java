/** JMH benchmarks comparing Stowage with the raw libraries and SDKs it builds on. */
package dev.stowage.bench;
