package org.electorallog.testkit;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;

/**
 * What a program's class path lacks: starting from its main class, every class of this project that
 * the program reaches (through the class file's constant pool: class references, member and
 * signature descriptors, annotation values such as picocli's {@code subcommands}) is read, and every
 * class it names must be on that class path or in the JDK. Libraries are not walked (their optional
 * dependencies are theirs to guard); this project's classes are, so a command whose module's jar is
 * missing from a launcher's {@code lib/} is named with the class that needs it (issue 60).
 *
 * <p>The class path is read as files (the jars a script or a distribution runs with), never through
 * the test's own class loader, which holds test-scoped jars a user does not have. Class file layout:
 * The Java Virtual Machine Specification, SE 17, section 4.4 (the constant pool).
 */
public final class ClassPathClosure {
    private static final String OWN = "org/electorallog/";
    private static final Pattern DESCRIPTOR_TYPE = Pattern.compile("L([A-Za-z0-9_$/]+)[;<]");

    private final List<Path> jars;
    /** Internal class name to the jar that holds it, first jar wins as on a class path. */
    private final Map<String, Path> index = new HashMap<>();

    private ClassPathClosure(List<Path> jars) {
        this.jars = List.copyOf(jars);
        for (Path jar : this.jars) {
            try (JarFile file = new JarFile(jar.toFile())) {
                file.stream()
                        .map(ZipEntry::getName)
                        .filter(n -> n.endsWith(".class"))
                        .forEach(n -> {
                            String name = n.substring(0, n.length() - ".class".length());
                            if (name.startsWith("META-INF/versions/")) {
                                // a multi-release jar's class for a later Java: META-INF/versions/N/a/b/C
                                int slash = name.indexOf('/', "META-INF/versions/".length());
                                name = name.substring(slash + 1);
                            }
                            index.putIfAbsent(name, jar);
                        });
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + jar, e);
            }
        }
    }

    /** The jars of a class path, read as files. */
    public static ClassPathClosure of(List<Path> jars) {
        return new ClassPathClosure(jars);
    }

    /** Every jar in a folder, as {@code -cp 'lib/*'} takes them (the distribution's {@code lib/}). */
    public static ClassPathClosure ofFolder(Path lib) throws IOException {
        List<Path> jars = new ArrayList<>();
        try (Stream<Path> all = Files.list(lib)) {
            all.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(jars::add);
        }
        if (jars.isEmpty()) {
            throw new IOException("no jar in " + lib);
        }
        return new ClassPathClosure(jars);
    }

    /**
     * A module's own jar ({@code target/<artifactId>-<version>.jar}) then every jar of
     * {@code target/lib}: the class path {@code ./electoral-log} runs a module with after
     * {@code package}.
     */
    public static ClassPathClosure ofModule(Path target, String artifactId) throws IOException {
        List<Path> jars = new ArrayList<>();
        try (Stream<Path> own = Files.list(target)) {
            own.filter(p -> p.getFileName()
                            .toString()
                            .matches(Pattern.quote(artifactId) + "-[0-9][^-]*(-SNAPSHOT)?\\.jar"))
                    .forEach(jars::add);
        }
        if (jars.size() != 1) {
            throw new IOException("expected one " + artifactId + " jar in " + target + ", found " + jars);
        }
        jars.addAll(ofFolder(target.resolve("lib")).jars());
        return new ClassPathClosure(jars);
    }

    /**
     * What the program starting at {@code mainClass} (binary name, {@code a.b.C}) reaches.
     *
     * @param reached this project's classes the walk read (binary names), sorted
     * @param missing each class (binary name) the class path lacks, with the first of this
     *     project's classes found to need it, sorted by name; the main class itself missing is
     *     needed by "the command line"
     */
    public record Walk(Set<String> reached, Map<String, String> missing) {}

    /** Walks this project's classes from {@code mainClass} and names what the class path lacks. */
    public Walk walk(String mainClass) {
        Map<String, String> missing = new TreeMap<>();
        Map<String, String> neededBy = new HashMap<>();
        Deque<String> queue = new ArrayDeque<>();
        String start = mainClass.replace('.', '/');
        neededBy.put(start, "the command line");
        queue.add(start);
        Set<String> reached = new TreeSet<>();
        Map<Path, JarFile> open = new HashMap<>();
        try {
            while (!queue.isEmpty()) {
                String name = queue.remove();
                Path jar = index.get(name);
                if (jar == null) {
                    missing.put(name.replace('/', '.'), neededBy.get(name).replace('/', '.'));
                    continue;
                }
                reached.add(name.replace('/', '.'));
                for (String ref : references(open, jar, name)) {
                    if (neededBy.putIfAbsent(ref, name) != null) {
                        continue;
                    }
                    if (ref.startsWith(OWN)) {
                        queue.add(ref);
                    } else if (!index.containsKey(ref) && !inJdk(ref)) {
                        missing.put(ref.replace('/', '.'), name.replace('/', '.'));
                    }
                }
            }
        } finally {
            for (JarFile file : open.values()) {
                try {
                    file.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return new Walk(Collections.unmodifiableSet(reached), Collections.unmodifiableMap(missing));
    }

    private static boolean inJdk(String name) {
        try {
            Class.forName(name.replace('/', '.'), false, ClassLoader.getPlatformClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static List<String> references(Map<Path, JarFile> open, Path jar, String name) {
        try {
            JarFile file = open.get(jar);
            if (file == null) {
                file = new JarFile(jar.toFile());
                open.put(jar, file);
            }
            ZipEntry entry = file.getEntry(name + ".class");
            try (InputStream in = file.getInputStream(entry)) {
                return constantPoolClasses(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name + " in " + jar, e);
        }
    }

    /**
     * The class names a class file's constant pool holds (JVMS 17 section 4.4): CONSTANT_Class
     * entries (array types reduced to their element type) and the object types inside every UTF-8
     * entry that is not a string literal's (descriptors, signatures, annotation class values).
     */
    static List<String> constantPoolClasses(InputStream raw) throws IOException {
        DataInputStream in = new DataInputStream(raw);
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort(); // minor
        in.readUnsignedShort(); // major
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        List<Integer> classNames = new ArrayList<>();
        Set<Integer> literals = new HashSet<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF(); // Utf8 (modified UTF-8, as readUTF reads)
                case 7 -> classNames.add(in.readUnsignedShort()); // Class
                case 8 -> literals.add(in.readUnsignedShort()); // String
                case 16, 19, 20 -> in.readUnsignedShort(); // MethodType, Module, Package
                case 15 -> { // MethodHandle
                    in.readUnsignedByte();
                    in.readUnsignedShort();
                }
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt(); // Integer, Float, refs, NameAndType, dynamic
                case 5, 6 -> { // Long, Double take two slots
                    in.readLong();
                    i++;
                }
                default -> throw new IOException("constant pool tag " + tag + " at " + i);
            }
        }
        Set<String> out = new HashSet<>();
        for (int index : classNames) {
            String n = utf8[index];
            if (n.startsWith("[")) {
                Matcher m = DESCRIPTOR_TYPE.matcher(n);
                if (m.find()) {
                    out.add(m.group(1));
                }
            } else {
                out.add(n);
            }
        }
        for (int i = 1; i < count; i++) {
            if (utf8[i] != null && !literals.contains(i) && utf8[i].indexOf('/') > 0) {
                Matcher m = DESCRIPTOR_TYPE.matcher(utf8[i]);
                while (m.find()) {
                    if (m.group(1).indexOf('/') > 0) {
                        out.add(m.group(1));
                    }
                }
            }
        }
        List<String> sorted = new ArrayList<>(out);
        Collections.sort(sorted);
        return sorted;
    }

    /** The jars this closure reads, in class path order. */
    public List<Path> jars() {
        return jars;
    }
}
