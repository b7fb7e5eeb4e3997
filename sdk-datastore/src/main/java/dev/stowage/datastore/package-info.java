/** The Google Cloud Datastore driver and the Google Cloud Storage blob store. */
package dev.stowage.datastore;
