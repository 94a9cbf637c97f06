/**
 * The Cloud API on AWS (paper 000, section 6): storage on S3 (with conditional puts), simple
 * queues on SQS or on S3 objects, machine reservation on EC2, over the AWS SDK for Java v2's
 * asynchronous clients. The public API is {@link io.stratus.aws.AwsConfig} and {@link
 * io.stratus.aws.AwsCloud}; the services are package-private and reached through the Cloud API
 * interfaces. See the module's README for configuration, IAM permissions and LocalStack.
 */
package io.stratus.aws;
