/**
 * Capacity planning for provisioned tables: {@link dev.stowage.capacity.CapacitySimulator}
 * simulates a table with partitions, burst capacity and an auto scaler reading delayed metrics;
 * {@link dev.stowage.capacity.CapacityExperiment} runs the auto-scaling experiment of
 * docs/cost-and-capacity.md; {@link dev.stowage.capacity.CapacityAdvisor} recommends capacity from
 * observed request counts and warns about partition dilution.
 */
package dev.stowage.capacity;
