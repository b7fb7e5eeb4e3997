/** Apache Beam source and sink for Stowage tables, and the migration pipeline. */
package dev.stowage.beam;
