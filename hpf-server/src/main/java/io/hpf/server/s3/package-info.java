/**
 * The S3 protocol: SigV4 signatures, aws-chunked bodies and checksums, keys, XML, errors,
 * multi-deletes and multipart uploads.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive.model, io.hpf.server.archives.
 */
package io.hpf.server.s3;
