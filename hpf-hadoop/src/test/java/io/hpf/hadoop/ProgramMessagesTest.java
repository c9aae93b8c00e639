package io.hpf.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Library messages said in hpf's words: no class names, nothing said twice. */
class ProgramMessagesTest {
  @Test
  void classNamesAndRepeatsOfAConnectorsMessageGo() {
    // S3A's message when nothing listens at the endpoint, as printed before.
    String s3a =
        "getFileStatus on s3a://b/x.hpf: software.amazon.awssdk.core.exception.SdkClientException:"
            + " Unable to execute HTTP request: Connect to 127.0.0.1:19333 [/127.0.0.1] failed:"
            + " Connection refused (SDK Attempt Count: 6):    software.amazon.awssdk.core.exception"
            + ".SdkClientException: Unable to execute HTTP request: Connect to 127.0.0.1:19333"
            + " [/127.0.0.1] failed: Connection refused (SDK Attempt Count: 6): Connection refused";
    assertEquals(
        "getFileStatus on s3a://b/x.hpf: Unable to execute HTTP request: Connect to"
            + " 127.0.0.1:19333 [/127.0.0.1] failed: Connection refused (SDK Attempt Count: 6):"
            + " Connection refused",
        ProgramMessages.describe(new IOException(s3a)));
    assertEquals(
        "x.hpf: no such archive directory",
        ProgramMessages.describe(new IOException("x.hpf: no such archive directory")));
  }
}
