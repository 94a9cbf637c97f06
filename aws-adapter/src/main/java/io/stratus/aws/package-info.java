/**
 * The Cloud API on AWS: storage on S3, simple queues on SQS or S3, machine reservation on EC2 (paper 000, section 6). Built in the real-cloud issue.
 */
package io.stratus.aws;
