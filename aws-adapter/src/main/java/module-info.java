/**
 * The Cloud API on AWS: S3, SQS, DynamoDB and EC2, configured by {@link io.stratus.aws.AwsConfig}.
 * No AWS SDK type appears in its API.
 */
// The AWS SDK names its modules in its manifests only.
@SuppressWarnings("requires-automatic")
module io.stratus.aws {
  requires transitive io.stratus.cloudapi;
  requires software.amazon.awssdk.auth;
  requires software.amazon.awssdk.awscore;
  requires software.amazon.awssdk.core;
  requires software.amazon.awssdk.http;
  requires software.amazon.awssdk.http.nio.netty;
  requires software.amazon.awssdk.regions;
  requires software.amazon.awssdk.retries;
  requires software.amazon.awssdk.retries.api;
  requires software.amazon.awssdk.utils;
  requires software.amazon.awssdk.services.dynamodb;
  requires software.amazon.awssdk.services.ec2;
  requires software.amazon.awssdk.services.s3;
  requires software.amazon.awssdk.services.sqs;

  exports io.stratus.aws;
}
