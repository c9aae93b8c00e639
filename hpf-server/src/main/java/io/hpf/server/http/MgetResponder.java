package io.hpf.server.http;

import io.hpf.archive.ArchiveFormat;
import io.hpf.archive.ArchiveReader;
import io.hpf.archive.FetchedEntry;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code POST /<archive>/_mget}: many entries in one request and one streamed response. The body
 * lists names, one per line (UTF-8, '\n' or "\r\n"). The response ({@code application/x-hpf-mget},
 * chunked) has, for each name in order, a line {@code <status> <length> <name>\n}, then {@code
 * <length>} bytes of content, then '\n'. Status 200 carries the content; 404 (no such entry), 400
 * (invalid name), 413 (over {@link #MAX_ENTRY_BYTES}: GET it) and 500 (damaged, logged) carry none.
 * Runs on a worker, fetching names in batches ({@link ArchiveReader#fetchAll}) and writing an entry
 * at a time, waiting while the client is slower than the archive, so memory stays bounded.
 */
final class MgetResponder {
  /** The largest entry sent in an _mget; larger ones are 413 there and served by GET. */
  static final int MAX_ENTRY_BYTES = 16 << 20;

  /** Names fetched together, and the most content bytes such a batch holds in memory. */
  static final int BATCH_NAMES = 256;

  static final long BATCH_BYTES = 2L * MAX_ENTRY_BYTES;

  static final String CONTENT_TYPE = "application/x-hpf-mget";

  private final RequestRouter router;
  private final int maxNames;

  MgetResponder(RequestRouter router, int maxNames) {
    this.router = router;
    this.maxNames = maxNames;
  }

  void respond(Exchange ex, String archive) {
    ex.route("mget");
    List<String> names = names(ex.request.content().toString(StandardCharsets.UTF_8));
    if (names.size() > maxNames) {
      ex.error(
          HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
          names.size() + " names in one _mget; at most " + maxNames);
      return;
    }
    HttpResponse head = ex.head(HttpResponseStatus.OK);
    head.headers().set(HttpHeaderNames.CONTENT_TYPE, CONTENT_TYPE);
    Exchange.chunked(head);
    ex.sendHeaders(head);
    ArchiveReader reader = ex.lease().reader();
    for (int from = 0; from < names.size(); from += BATCH_NAMES) {
      List<String> batch = names.subList(from, Math.min(names.size(), from + BATCH_NAMES));
      List<FetchedEntry> fetched = fetchAll(reader, batch);
      for (int i = 0; i < batch.size(); i++) {
        if (!ex.ctx.channel().isActive()) {
          ex.abort();
          return;
        }
        ByteBuf frame =
            frame(
                ex,
                reader,
                archive,
                batch.get(i),
                fetched == null,
                fetched == null ? null : fetched.get(i));
        ex.countBytes(frame.readableBytes());
        ChannelFuture written = ex.ctx.writeAndFlush(new DefaultHttpContent(frame));
        if (!ex.ctx.channel().isWritable()) {
          written.awaitUninterruptibly(router.writeTimeoutMillis(), TimeUnit.MILLISECONDS);
        }
      }
    }
    ex.finish(ex.ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT));
  }

  /**
   * The batch's entries fetched together (one read per run of neighbouring entries: on HDFS one
   * round trip per run, not per name), or null when a read failed: each name is then fetched alone,
   * so that only the damaged one is a 500.
   */
  private static List<FetchedEntry> fetchAll(ArchiveReader reader, List<String> batch) {
    try {
      return reader.fetchAll(batch, MAX_ENTRY_BYTES, BATCH_BYTES);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * The frame of one name from what its batch fetched ({@code batched}, null: not found), or
   * fetched {@code alone} when the batch failed or left its content out for the batch's budget.
   */
  private ByteBuf frame(
      Exchange ex,
      ArchiveReader reader,
      String archive,
      String name,
      boolean alone,
      FetchedEntry batched) {
    int status;
    byte[] content = null;
    if (ArchiveFormat.whyNotNormal(name) != null) {
      status = 400;
    } else {
      try {
        FetchedEntry f =
            alone || overBatchBudget(batched) ? reader.fetch(name, MAX_ENTRY_BYTES) : batched;
        if (f == null) {
          status = 404;
        } else if (f.content() == null) {
          status = 413;
        } else {
          status = 200;
          content = f.content();
        }
      } catch (IOException | RuntimeException e) {
        router.readFailed(archive, name, e);
        status = 500;
      }
    }
    byte[] line =
        (status + " " + (content == null ? 0 : content.length) + " " + name + "\n")
            .getBytes(StandardCharsets.UTF_8);
    int length = line.length + (content == null ? 0 : content.length) + 1;
    ByteBuf frame = ex.ctx.alloc().buffer(length);
    frame.writeBytes(line);
    if (content != null) {
      frame.writeBytes(content);
    }
    frame.writeByte('\n');
    return frame;
  }

  /** Whether the batch left out content that a fetch of its own returns. */
  private static boolean overBatchBudget(FetchedEntry batched) {
    return batched != null
        && batched.content() == null
        && batched.info().rawLength() <= MAX_ENTRY_BYTES
        && batched.info().storedLength() <= MAX_ENTRY_BYTES;
  }

  /** The names of a request body: one per line, blank lines skipped. */
  static List<String> names(String body) {
    List<String> out = new ArrayList<>();
    int start = 0;
    while (start < body.length()) {
      int end = body.indexOf('\n', start);
      if (end < 0) {
        end = body.length();
      }
      String line = body.substring(start, end);
      if (line.endsWith("\r")) {
        line = line.substring(0, line.length() - 1);
      }
      if (!line.isEmpty()) {
        out.add(line);
      }
      start = end + 1;
    }
    return out;
  }
}
