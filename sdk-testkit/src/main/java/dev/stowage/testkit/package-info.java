/**
 * The Stowage conformance kit: the contracts every driver must honour, as JUnit 5 tests, plus jqwik
 * {@link dev.stowage.testkit.Generators generators} for items and values.
 *
 * <p>A driver module adds {@code sdk-testkit} and {@code org.junit.jupiter:junit-jupiter} as test
 * dependencies and writes one class:
 *
 * <pre>{@code
 * class AzureConformanceTest extends ConformanceKit {
 *   @Override
 *   protected DriverFixture createFixture() {
 *     // sdk-test's Azurite, shared by the test run; fails saying what to install if it cannot start
 *     String conn = Emulators.shared().azurite().connectionString();
 *     return DriverFixture.of(
 *         AzureTablesDriver.fromConnectionString(conn),
 *         AzureBlobStore.fromConnectionString(conn, "overflow", ""),
 *         Scale.full().withPaging(2_000, 500), // Azurite is slow; see Scale for the floors
 *         () -> {});
 *   }
 * }
 * }</pre>
 *
 * <p>Every contract group runs as a nested class of that test; capabilities the backend lacks are
 * reported as aborted with the backend's reason, never as passed.
 */
package dev.stowage.testkit;
