package io.hpf.server;

import io.hpf.server.ring.Ring;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * How a server runs: what it serves, where it listens, its memory for hot archives and its limits.
 * Defaults are the CLI's; every field is documented by {@code hpf serve --help}.
 */
public final class ServerOptions {
  /** A directory searched for {@code *.hpf} archives, or one archive; local or a Hadoop URI. */
  public String root;

  public String bindAddress = "127.0.0.1";
  public int port = 8080;

  /** Index memory the open readers may hold; the most requested archives are kept first. */
  public long memoryBytes = 1L << 30;

  /** Readers of archives outside the hot set are closed after this long unused. */
  public long idleReaderMillis = 60_000;

  /** How often open archives are looked at for a new generation (one listing each). */
  public long refreshMillis = 500;

  /** How often the root is walked for new or removed archives. */
  public long rescanMillis = 10_000;

  /** The popularity window and how many slices it moves by. */
  public long windowMillis = 60_000;

  public int windowSlices = 6;

  /** How many of the most requested archives form the hot set. */
  public int hotK = 64;

  /**
   * In a ring: a hot archive asked for at least this many times in the window is served here even
   * when another server owns it.
   */
  public long replicateMin = 100;

  /** Space-Saving counters per window slice (more: tighter counts). */
  public int hotCounters = 1024;

  /** The bearer token every request must carry, or null for none. */
  public String token;

  /**
   * The S3 API's access keys: every request must be signed (AWS Signature V4) by one of them; null
   * for anonymous reads.
   */
  public io.hpf.server.s3.S3Keys s3Keys;

  /**
   * The domain of virtual-host-style S3 requests ({@code photos.s3.example.com} is bucket {@code
   * photos} when this is {@code s3.example.com}), or null for path style only.
   */
  public String s3Domain;

  /** The archive ids that may be served, or null for all. */
  public Set<String> allow;

  public int maxConnections = 10_000;
  public int maxHeaderBytes = 8192;
  public int maxMgetNames = 1000;
  public int maxMgetBodyBytes = 1 << 20;

  /** Whether PUT and DELETE write into the archives (never without a token or S3 keys). */
  public boolean writable;

  /** The largest object a PUT takes, held in memory until committed. */
  public int maxObjectBytes = 64 << 20;

  /** Content bytes that may wait for their commits at once; past it writes get 503 SlowDown. */
  public long maxWaitingBytes = 256L << 20;

  /** A multipart upload with no request for this long is dropped with its staged parts. */
  public long uploadExpiryMillis = 24 * 3600_000L;

  /** A writer with no change for this long is closed, letting its archive's lock go. */
  public long idleWriterMillis = 10_000;

  /** A request's head and body must arrive within this long from its first byte. */
  public long requestTimeoutMillis = 10_000;

  /** A connection with nothing read or written for this long is closed. */
  public long idleConnectionMillis = 60_000;

  /** Event-loop threads (0: one per core) and threads for blocking work (opens, HDFS, streams). */
  public int ioThreads;

  public int workerThreads = 32;

  /** The ring of servers this one belongs to, and its own id in it; null when alone. */
  public Ring ring;

  public String selfId;

  /** Proxy requests for archives owned by another server instead of redirecting (307). */
  public boolean proxy;

  /** Hadoop settings (-D) for roots on Hadoop file systems. */
  public Map<String, String> hadoopProperties = new LinkedHashMap<>();

  /**
   * The clock (ns) of everything the server times itself: rescans, the hot set's window and its
   * recomputation, idle readers, repeated warnings. Tests give one they move; not a command flag.
   */
  public java.util.function.LongSupplier nanoClock = System::nanoTime;

  /** The time of day (ms) request signatures are checked against; tests give one they set. */
  public java.util.function.LongSupplier wallClock = System::currentTimeMillis;
}
