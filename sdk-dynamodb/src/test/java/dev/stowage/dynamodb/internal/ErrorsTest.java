package dev.stowage.dynamodb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.ConditionFailedException;
import dev.stowage.ConflictException;
import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.NotFoundException;
import dev.stowage.StowageException;
import dev.stowage.ThrottledException;
import dev.stowage.UnavailableException;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ItemCollectionSizeLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.RequestLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;

class ErrorsTest {
  private static <B extends AwsServiceException.Builder> AwsServiceException service(
      B builder, String code, int status, String message) {
    return builder
        .message(message)
        .statusCode(status)
        .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(message).build())
        .build();
  }

  private static StowageException translate(Exception e) {
    StowageException s =
        Errors.translate("op", (software.amazon.awssdk.core.exception.SdkException) e);
    assertThat(s.getCause()).isSameAs(e);
    return s;
  }

  @Test
  void throttlingKinds() {
    assertThat(
            translate(
                service(
                    ProvisionedThroughputExceededException.builder(),
                    "ProvisionedThroughputExceededException",
                    400,
                    "slow")))
        .isInstanceOf(ThrottledException.class);
    assertThat(
            translate(
                service(
                    RequestLimitExceededException.builder(), "RequestLimitExceeded", 400, "limit")))
        .isInstanceOf(ThrottledException.class);
    assertThat(translate(service(DynamoDbException.builder(), "ThrottlingException", 400, "rate")))
        .isInstanceOf(ThrottledException.class)
        .matches(StowageException::retryable);
  }

  @Test
  void conditionsNotFoundValidationAndSize() {
    assertThat(
            translate(
                service(
                    ConditionalCheckFailedException.builder(),
                    "ConditionalCheckFailedException",
                    400,
                    "no")))
        .isInstanceOf(ConditionFailedException.class);
    assertThat(
            translate(
                service(
                    ResourceNotFoundException.builder(), "ResourceNotFoundException", 400, "gone")))
        .isInstanceOf(NotFoundException.class);
    assertThat(
            translate(
                service(
                    DynamoDbException.builder(),
                    "ValidationException",
                    400,
                    "One or more parameter values were invalid")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("One or more parameter values were invalid");
    assertThat(
            translate(
                service(
                    DynamoDbException.builder(),
                    "ValidationException",
                    400,
                    "Item size has exceeded the maximum allowed size")))
        .isInstanceOf(ItemTooLargeException.class);
    assertThat(
            translate(
                service(
                    ItemCollectionSizeLimitExceededException.builder(),
                    "ItemCollectionSizeLimitExceededException",
                    400,
                    "10GB")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("10GB");
  }

  @Test
  void serverAndClientFailuresAreUnavailable() {
    assertThat(translate(service(DynamoDbException.builder(), "InternalServerError", 500, "boom")))
        .isInstanceOf(UnavailableException.class);
    assertThat(translate(service(DynamoDbException.builder(), "ServiceUnavailable", 503, "later")))
        .isInstanceOf(UnavailableException.class)
        .matches(StowageException::retryable);
    assertThat(translate(SdkClientException.create("connection refused")))
        .isInstanceOf(UnavailableException.class);
    assertThat(
            translate(
                service(
                    TransactionConflictException.builder(),
                    "TransactionConflictException",
                    400,
                    "busy")))
        .isInstanceOf(ConflictException.class);
  }

  private static TransactionCanceledException cancelled(String... codes) {
    List<CancellationReason> reasons =
        java.util.Arrays.stream(codes)
            .map(c -> CancellationReason.builder().code(c).message(c + " message").build())
            .toList();
    return (TransactionCanceledException)
        TransactionCanceledException.builder()
            .cancellationReasons(reasons)
            .message("Transaction cancelled")
            .statusCode(400)
            .awsErrorDetails(
                AwsErrorDetails.builder().errorCode("TransactionCanceledException").build())
            .build();
  }

  @Test
  void cancellationReasons() {
    assertThat(translate(cancelled("None", "ConditionalCheckFailed")))
        .isInstanceOf(ConditionFailedException.class)
        .hasMessageContaining("operation 1");
    assertThat(translate(cancelled("TransactionConflict", "None")))
        .isInstanceOf(ConflictException.class);
    assertThat(translate(cancelled("None", "ThrottlingError")))
        .isInstanceOf(ThrottledException.class);
    assertThat(translate(cancelled("ProvisionedThroughputExceeded")))
        .isInstanceOf(ThrottledException.class);
    assertThat(translate(cancelled("ValidationError"))).isInstanceOf(InvalidRequestException.class);
    assertThat(translate(cancelled("ItemCollectionSizeLimitExceeded")))
        .isInstanceOf(InvalidRequestException.class);
  }
}
