package org.electorallog.export;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * An export as one zip stream (issue 63: the query API's {@code export.parquet}): its files flat
 * at the archive's root, each Parquet file as soon as it is written, {@code manifest.json} last.
 * Deflated at level 0, no compression (the Parquet files are zstd already), so the archive is the
 * files' bytes and a few framing bytes each. {@link #extract} unpacks one for {@code verify-export}; what the
 * archive holds is then checked as a directory is: the manifest names every file and its SHA-256.
 */
public final class ExportArchive implements AutoCloseable {
    /** The most entries an archive may hold when extracted: far more files than any export writes. */
    static final int MAX_ENTRIES = 100_000;

    private final ZipOutputStream zip;

    /** An archive written into {@code out} (not closed by {@link #close}: the caller's stream). */
    public ExportArchive(OutputStream out) {
        this.zip = new ZipOutputStream(out);
        zip.setLevel(Deflater.NO_COMPRESSION);
    }

    /** Adds {@code file} under its own name, then deletes it when {@code delete} (the API's temporary copy). */
    public void add(Path file, boolean delete) throws IOException {
        zip.putNextEntry(new ZipEntry(file.getFileName().toString()));
        Files.copy(file, zip);
        zip.closeEntry();
        zip.flush();
        if (delete) {
            Files.delete(file);
        }
    }

    /** Writes the archive's directory: the archive is complete. */
    public void finish() throws IOException {
        zip.finish();
        zip.flush();
    }

    @Override
    public void close() throws IOException {
        zip.finish();
    }

    /**
     * Unpacks the archive {@code zip} into the new directory {@code into}: flat names only (no
     * directory, no {@code ..}, no name twice), so an archive cannot write outside it.
     */
    public static Path extract(Path zip, Path into) throws IOException {
        Files.createDirectories(into);
        int n = 0;
        try (InputStream raw = Files.newInputStream(zip);
                ZipInputStream in = new ZipInputStream(raw)) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                String name = e.getName();
                if (e.isDirectory()
                        || name.isEmpty()
                        || name.contains("/")
                        || name.contains("\\")
                        || name.equals(".")
                        || name.equals("..")) {
                    throw new IOException(zip.getFileName() + " holds '" + name + "': an export archive holds its "
                            + "files flat, by name");
                }
                if (++n > MAX_ENTRIES) {
                    throw new IOException(zip.getFileName() + " holds more than " + MAX_ENTRIES + " files");
                }
                try {
                    Files.copy(in, into.resolve(name));
                } catch (FileAlreadyExistsException twice) {
                    throw new IOException(zip.getFileName() + " holds '" + name + "' twice", twice);
                }
            }
        }
        if (n == 0) {
            throw new IOException(zip.getFileName() + " is not a zip archive of an export (no entries)");
        }
        return into;
    }

    /** Deletes a flat export directory (what {@link #extract} made, or the API's temporary one) and its files. */
    public static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }
}
