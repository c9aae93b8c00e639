package io.hpf.spark.write;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.spark.HadoopConf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A task of a write that failed and was cleaned up before the task started. */
class TaskWriterTest {
  @TempDir Path dir;

  @Test
  void aTaskWhoseStagingIsGoneMakesNoDirectory() {
    Path job = dir.resolve("a.hpf").resolve("_hpf_jobs").resolve("spark-gone");
    StructType schema =
        new StructType().add("name", DataTypes.StringType).add("content", DataTypes.BinaryType);
    TaskWriter task =
        new TaskWriter(
            new HadoopConf(new Configuration()),
            job.toUri(),
            InputColumns.of(schema),
            WriteOptions.of(Map.of()));
    Iterator<Row> rows = List.of(RowFactory.create("x", new byte[] {1})).iterator();
    IOException e = assertThrows(IOException.class, () -> task.call(0, rows));
    assertTrue(e.getMessage().contains("the write was aborted"), e.getMessage());
    assertFalse(Files.exists(dir.resolve("a.hpf")), "the staging directory was made again");
  }
}
