package dev.stowage.bench;

import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbBean;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbPartitionKey;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbSortKey;

/**
 * The small item of the DynamoDB benchmarks as a DynamoDB Enhanced Client bean: the same eight
 * attributes {@link SmallItems} builds for the raw client and for Stowage. A plain mutable bean, as
 * the Enhanced Client requires; not thread-safe.
 */
@DynamoDbBean
public class BenchUser {
  private String pk;
  private Long sk;
  private String name;
  private String email;
  private Integer age;
  private Boolean active;
  private Long score;
  private String city;

  /** The partition key. */
  @DynamoDbPartitionKey
  public String getPk() {
    return pk;
  }

  /** Sets the partition key. */
  public void setPk(String pk) {
    this.pk = pk;
  }

  /** The sort key. */
  @DynamoDbSortKey
  public Long getSk() {
    return sk;
  }

  /** Sets the sort key. */
  public void setSk(Long sk) {
    this.sk = sk;
  }

  /** The name. */
  public String getName() {
    return name;
  }

  /** Sets the name. */
  public void setName(String name) {
    this.name = name;
  }

  /** The e-mail address. */
  public String getEmail() {
    return email;
  }

  /** Sets the e-mail address. */
  public void setEmail(String email) {
    this.email = email;
  }

  /** The age. */
  public Integer getAge() {
    return age;
  }

  /** Sets the age. */
  public void setAge(Integer age) {
    this.age = age;
  }

  /** Whether the user is active. */
  public Boolean getActive() {
    return active;
  }

  /** Sets whether the user is active. */
  public void setActive(Boolean active) {
    this.active = active;
  }

  /** The score. */
  public Long getScore() {
    return score;
  }

  /** Sets the score. */
  public void setScore(Long score) {
    this.score = score;
  }

  /** The city. */
  public String getCity() {
    return city;
  }

  /** Sets the city. */
  public void setCity(String city) {
    this.city = city;
  }
}
