/** Implementation of the attribute codecs; not API, may change without notice. */
package dev.stowage.codec.internal;
