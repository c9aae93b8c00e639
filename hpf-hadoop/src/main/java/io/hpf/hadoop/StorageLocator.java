package io.hpf.hadoop;

import io.hpf.pack.LocalSourceTree;
import io.hpf.pack.SourceTree;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.HdfsConfiguration;

/**
 * Turns what a user typed (a local path, {@code file:///...}, {@code hdfs://nn:8020/...}, {@code
 * s3a://bucket/...}) into storage or a source tree. Local paths use {@code java.nio} directly:
 * Hadoop's local file system without native libraries starts a process per created file. Hadoop
 * settings come from {@code $HADOOP_CONF_DIR} ({@code core-site.xml}, {@code hdfs-site.xml}) and
 * then from {@code -D key=value} properties, which win.
 */
public final class StorageLocator {

  private final Map<String, String> properties;
  private final HadoopStorageOptions options;
  private Configuration configuration;

  public StorageLocator(Map<String, String> properties, HadoopStorageOptions options) {
    this.properties = Map.copyOf(properties);
    this.options = options;
  }

  /** The Hadoop configuration, built on first use (local archives never need it). */
  public synchronized Configuration configuration() {
    if (configuration == null) {
      Configuration conf =
          SiteFiles.addFromEnvironment(new HdfsConfiguration(), "core-site.xml", "hdfs-site.xml");
      properties.forEach(conf::set);
      configuration = conf;
    }
    return configuration;
  }

  /** A new (not shared) file system instance for a Hadoop location; the caller closes it. */
  public FileSystem fileSystem(String location) throws IOException {
    try {
      return FileSystem.newInstance(URI.create(location), configuration());
    } catch (org.apache.hadoop.fs.UnsupportedFileSystemException e) {
      throw noFileSystem(location, e);
    } catch (RuntimeException e) {
      // A scheme Hadoop knows (core-default.xml names its class) whose connector is missing.
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof ClassNotFoundException) {
          throw noFileSystem(location, e);
        }
      }
      throw e;
    }
  }

  private static IOException noFileSystem(String location, Exception e) {
    String scheme = URI.create(location).getScheme();
    return new IOException(
        location
            + ": no file system for '"
            + scheme
            + "://' on the classpath ("
            + connectorHint(scheme == null ? "" : scheme)
            + ")",
        e);
  }

  /** What to add for a scheme: the connectors of the common stores (s3a:// is built in). */
  private static String connectorHint(String scheme) {
    if (scheme.equals("s3") || scheme.equals("s3n")) {
      return "use s3a://, which hpf includes";
    }
    if (java.util.Set.of("abfs", "abfss", "wasb", "wasbs").contains(scheme)) {
      return "Azure needs hadoop-azure and its dependencies: add their jars with HPF_CLASSPATH";
    }
    if (scheme.equals("gs")) {
      return "Google Cloud Storage needs the gcs-connector jar: add it with HPF_CLASSPATH";
    }
    return "add the jars of its Hadoop connector with HPF_CLASSPATH";
  }

  /** An existing archive. */
  public Storage openArchive(String location) throws IOException {
    if (LocalStorage.isLocal(location)) {
      return LocalStorage.open(LocalStorage.localPath(location));
    }
    FileSystem fs = fileSystem(location);
    try {
      return HadoopStorage.open(fs, new Path(URI.create(location)), options, true);
    } catch (IOException | RuntimeException e) {
      fs.close();
      throw e;
    }
  }

  /** An existing archive, to read: nothing is asked of its file system before the first listing. */
  public Storage openArchiveToRead(String location) throws IOException {
    if (LocalStorage.isLocal(location)) {
      return LocalStorage.open(LocalStorage.localPath(location));
    }
    FileSystem fs = fileSystem(location);
    return HadoopStorage.openToRead(fs, new Path(URI.create(location)), options, true);
  }

  /** An archive directory to create (made if missing). */
  public Storage createArchive(String location) throws IOException {
    if (LocalStorage.isLocal(location)) {
      return LocalStorage.createDirectories(LocalStorage.localPath(location));
    }
    FileSystem fs = fileSystem(location);
    try {
      return HadoopStorage.createDirectories(fs, new Path(URI.create(location)), options, true);
    } catch (IOException | RuntimeException e) {
      fs.close();
      throw e;
    }
  }

  /**
   * A directory to pack. The file system of a Hadoop source stays open until the process ends (it
   * is the shared cached instance).
   */
  public SourceTree sourceTree(String location) throws IOException {
    return sourceTree(location, null);
  }

  /**
   * A directory to pack into the archive at {@code archive} (or null): should the archive lie
   * inside the directory, it is left out of the tree, so that an archive never packs itself.
   */
  public SourceTree sourceTree(String location, String archive) throws IOException {
    if (LocalStorage.isLocal(location)) {
      return LocalSourceTree.of(
          LocalStorage.localPath(location),
          archive != null && LocalStorage.isLocal(archive)
              ? LocalStorage.localPath(archive)
              : null);
    }
    FileSystem fs;
    try {
      fs = FileSystem.get(URI.create(location), configuration());
    } catch (org.apache.hadoop.fs.UnsupportedFileSystemException e) {
      throw noFileSystem(location, e);
    }
    Path archivePath =
        archive == null || LocalStorage.isLocal(archive) ? null : new Path(URI.create(archive));
    return HadoopSourceTree.of(fs, new Path(URI.create(location)), archivePath);
  }
}
