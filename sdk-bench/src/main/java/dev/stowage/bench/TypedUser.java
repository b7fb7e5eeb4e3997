package dev.stowage.bench;

import dev.stowage.typed.PartitionKey;
import dev.stowage.typed.SortKey;
import dev.stowage.typed.StowageTable;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbImmutable;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbPartitionKey;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbSortKey;

/**
 * The small benchmark item ({@link SmallItems}) as one immutable class with a builder, annotated
 * for both Stowage's typed items and the Enhanced Client's {@code TableSchema.fromImmutableClass},
 * so that both map the very same class. Immutable and thread-safe.
 */
@StowageTable("bench_typed")
@DynamoDbImmutable(builder = TypedUser.Builder.class)
public final class TypedUser {
  @PartitionKey private final String pk;
  @SortKey private final Long sk;
  private final String name;
  private final String email;
  private final Integer age;
  private final Boolean active;
  private final Long score;
  private final String city;

  private TypedUser(Builder b) {
    this.pk = b.pk;
    this.sk = b.sk;
    this.name = b.name;
    this.email = b.email;
    this.age = b.age;
    this.active = b.active;
    this.score = b.score;
    this.city = b.city;
  }

  /** A builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** The same values as {@link SmallItems#stowage}. */
  public static TypedUser of(TypedUserRecord r) {
    return builder()
        .pk(r.pk())
        .sk(r.sk())
        .name(r.name())
        .email(r.email())
        .age(r.age())
        .active(r.active())
        .score(r.score())
        .city(r.city())
        .build();
  }

  /** The partition key. */
  @DynamoDbPartitionKey
  public String getPk() {
    return pk;
  }

  /** The sort key. */
  @DynamoDbSortKey
  public Long getSk() {
    return sk;
  }

  /** The name. */
  public String getName() {
    return name;
  }

  /** The e-mail address. */
  public String getEmail() {
    return email;
  }

  /** The age. */
  public Integer getAge() {
    return age;
  }

  /** Whether the user is active. */
  public Boolean getActive() {
    return active;
  }

  /** The score. */
  public Long getScore() {
    return score;
  }

  /** The city. */
  public String getCity() {
    return city;
  }

  /** Builds a {@link TypedUser}; not thread-safe. */
  public static final class Builder {
    private String pk;
    private Long sk;
    private String name;
    private String email;
    private Integer age;
    private Boolean active;
    private Long score;
    private String city;

    /** Sets the partition key. */
    public Builder pk(String v) {
      this.pk = v;
      return this;
    }

    /** Sets the sort key. */
    public Builder sk(Long v) {
      this.sk = v;
      return this;
    }

    /** Sets the name. */
    public Builder name(String v) {
      this.name = v;
      return this;
    }

    /** Sets the e-mail address. */
    public Builder email(String v) {
      this.email = v;
      return this;
    }

    /** Sets the age. */
    public Builder age(Integer v) {
      this.age = v;
      return this;
    }

    /** Sets whether the user is active. */
    public Builder active(Boolean v) {
      this.active = v;
      return this;
    }

    /** Sets the score. */
    public Builder score(Long v) {
      this.score = v;
      return this;
    }

    /** Sets the city. */
    public Builder city(String v) {
      this.city = v;
      return this;
    }

    /** The user. */
    public TypedUser build() {
      return new TypedUser(this);
    }
  }
}
