package dev.nona.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.runtime.checkpoint.Checkpoints;

/**
 * The state directory of {@code bin/nona run}: Flink writes the controller's checkpoints under it
 * ({@code DIR/<job id>/chk-N/_metadata}, one job folder per run) and keeps them when the process dies; a start resumes
 * from the newest completed one. A checkpoint is complete when its {@code _metadata} file exists (Flink writes it
 * last); the newest is the one whose {@code _metadata} was written last (each run is a new job, whose checkpoint
 * numbers start again at 1), ties broken by the higher number.
 *
 * <p>Not thread safe; reads the file system on each call.
 */
public final class StateDirectory {
    /** The file in the directory that names the controller whose checkpoints it holds ({@link #claim}). */
    public static final String OWNER_FILE = "controller.id";
    /** The file a running controller process holds locked ({@link #hold}), with its pid in it. */
    public static final String LOCK_FILE = "controller.lock";
    /** The default, under the working directory: {@code nona-state/<controller.id>}. */
    public static final String DEFAULT_PARENT = "nona-state";

    private static final Pattern CHECKPOINT = Pattern.compile("chk-(\\d+)");
    /** A job's folder: Flink names it by the job's id, 32 hexadecimal digits. */
    private static final Pattern JOB_FOLDER = Pattern.compile("[0-9a-f]{32}");

    private final Path dir;

    public StateDirectory(Path dir) {
        this.dir = Objects.requireNonNull(dir, "state directory").toAbsolutePath().normalize();
    }

    /** The default state directory of {@code controllerId}, under {@code workingDir}. */
    public static StateDirectory defaultFor(Path workingDir, String controllerId) {
        return new StateDirectory(workingDir.resolve(DEFAULT_PARENT).resolve(controllerId));
    }

    public Path dir() {
        return dir;
    }

    /** The checkpoint storage URI Flink writes to ({@code execution.checkpointing.dir}). */
    public String checkpointUri() {
        return dir.toUri().toString();
    }

    /**
     * Claims the directory for {@code controllerId} before a start reads or writes a checkpoint there: a directory
     * whose {@link #OWNER_FILE} names another controller is an error naming both (its newest checkpoint is that
     * controller's table, rates and offsets, and the two would take each other's checkpoints on every restart); else
     * the file is written, naming {@code controllerId}. A directory of checkpoints without the file (written before
     * it existed) is claimed as it is.
     *
     * @param name how the user gave the directory, for the error ({@code --state-dir}, {@code checkpoint.dir}, ...)
     * @throws IllegalArgumentException naming the directory and both controllers
     */
    public void claim(String controllerId, String name) {
        Path owner = dir.resolve(OWNER_FILE);
        try {
            if (Files.isRegularFile(owner)) {
                String held = Files.readString(owner, StandardCharsets.UTF_8).strip();
                if (!held.equals(controllerId)) {
                    throw new IllegalArgumentException(name + " (" + dir + ") holds the checkpoints of controller '"
                            + held + "', not of '" + controllerId + "' (controller.id): give each controller a state "
                            + "directory of its own");
                }
                return;
            }
            Files.createDirectories(dir);
            Files.writeString(owner, controllerId + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot claim the state directory " + dir + " (" + owner + ")", e);
        }
    }

    /**
     * Holds the directory for this process until the result is closed: a second controller process given it (a
     * supervisor's restart while the first still runs, or one started twice by hand) is an error naming the pid that
     * holds it, for two processes there would each decide every request and write checkpoints the other's restart
     * takes. The lock is the operating system's on {@link #LOCK_FILE}, so it ends with the process that held it,
     * {@code kill -9} included: a restart after a crash finds it free.
     *
     * @param name how the user gave the directory, for the error ({@code --state-dir}, {@code checkpoint.dir}, ...)
     * @throws IllegalArgumentException when another process (or another hold of this one) has it
     */
    public Hold hold(String name) {
        Path file = dir.resolve(LOCK_FILE);
        FileChannel channel = null;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                String pid = Files.readString(file, StandardCharsets.UTF_8).strip();
                channel.close();
                throw new IllegalArgumentException(name + " (" + dir + ") is in use by another controller process"
                        + (pid.isEmpty() ? "" : " (pid " + pid + ")") + ": stop it first, or give this one a state "
                        + "directory of its own");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)));
            channel.force(false);
            return new Hold(channel);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot lock the state directory " + dir + " (" + file + ")", e);
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // the error being thrown says more
            }
        }
    }

    /** A process's hold of the directory ({@link #hold}); {@link #NONE} holds nothing. */
    public static final class Hold implements AutoCloseable {
        /** For a controller whose checkpoints go elsewhere. */
        public static final Hold NONE = new Hold(null);

        private final FileChannel channel;

        private Hold(FileChannel channel) {
            this.channel = channel;
        }

        /** Ends the hold: closing the channel releases its lock. */
        @Override
        public void close() {
            closeQuietly(channel);
        }
    }

    /** What a start finds: the checkpoint to resume from, or none and why. */
    public record Latest(Path checkpoint, String whyNone, List<String> skipped) {
        public Latest {
            skipped = List.copyOf(skipped);
        }
    }

    /**
     * The newest completed checkpoint whose metadata is readable; a checkpoint whose {@code _metadata} is empty or
     * does not start with Flink's magic number ({@link Checkpoints#HEADER_MAGIC_NUMBER}) is skipped (and named in {@link Latest#skipped}).
     */
    public Latest latest() {
        if (!Files.isDirectory(dir)) {
            return new Latest(null, "no checkpoint found in " + dir + " (no such directory)", List.of());
        }
        List<Candidate> found = new ArrayList<>();
        try (Stream<Path> jobs = Files.list(dir)) {
            for (Path job : jobs.filter(Files::isDirectory).toList()) {
                found.addAll(completed(job));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the state directory " + dir, e);
        }
        found.sort(Comparator.comparingLong(Candidate::writtenAt).thenComparingLong(Candidate::number).reversed());
        List<String> skipped = new ArrayList<>();
        for (Candidate c : found) {
            String unreadable = unreadable(c.path().resolve("_metadata"));
            if (unreadable == null) {
                return new Latest(c.path(), "", skipped);
            }
            skipped.add(c.path() + ": " + unreadable);
        }
        return new Latest(null, skipped.isEmpty() ? "no checkpoint found in " + dir
                : "no readable checkpoint in " + dir + " (" + String.join("; ", skipped) + ")", skipped);
    }

    /**
     * Deletes the job folders of earlier runs that no start can resume from any more, so that a controller restarted
     * again and again (a crash-looping pod) keeps about two runs' checkpoints rather than one more per restart. Only
     * folders named as Flink names a job's ({@code [0-9a-f]{32}}) are touched, never other files, and it must run
     * while this process {@link #hold holds} the directory (no other run writes there). A folder goes when
     * <ul>
     *   <li>it holds no completed checkpoint (a run that died before its first): nothing can restore from it or
     *       depends on it;</li>
     *   <li>or the start resumes from {@code latest} in another folder, and none of this folder's completed
     *       checkpoints is unreadable (those {@link #latest} skipped are kept for a look): its checkpoints are older
     *       than the one resumed from.</li>
     * </ul>
     * The folder resumed from is kept until the next start: in Flink's default {@code NO_CLAIM} mode the new run's
     * first checkpoint is a full one that depends on no file of the restored one, and until it completes a failure
     * restores from the restored one again. Under {@code CLAIM} mode ({@code claimed}) a run's incremental
     * checkpoints may use the files of the folders it was restored from, so nothing is deleted.
     *
     * @param latest  what the start found ({@link #latest}); {@code null} or without a checkpoint when it starts
     *                fresh, which keeps every folder holding a completed checkpoint
     * @param claimed whether the job restores in {@code CLAIM} mode
     * @return the folders deleted
     */
    public List<Path> prune(Latest latest, boolean claimed) {
        if (claimed || !Files.isDirectory(dir)) {
            return List.of();
        }
        Path resumedFrom = latest == null || latest.checkpoint() == null ? null : latest.checkpoint().getParent();
        List<Path> deleted = new ArrayList<>();
        try (Stream<Path> jobs = Files.list(dir)) {
            for (Path job : jobs.filter(j -> Files.isDirectory(j, LinkOption.NOFOLLOW_LINKS)
                    && JOB_FOLDER.matcher(j.getFileName().toString()).matches()).sorted().toList()) {
                if (job.equals(resumedFrom)) {
                    continue;
                }
                List<Candidate> completed = completed(job);
                boolean keptForALook = completed.stream().anyMatch(c -> unreadable(c.path().resolve("_metadata")) != null);
                if (completed.isEmpty() || (resumedFrom != null && !keptForALook)) {
                    deleteTree(job);
                    deleted.add(job);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prune the state directory " + dir, e);
        }
        return deleted;
    }

    /**
     * Deletes a job folder: first each checkpoint's {@code _metadata}, so that a process killed halfway leaves no
     * checkpoint that looks complete without its files (the next start deletes the rest as a folder with no completed
     * checkpoint), then everything.
     */
    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> chks = Files.list(root)) {
            for (Path chk : chks.filter(c -> CHECKPOINT.matcher(c.getFileName().toString()).matches()).toList()) {
                Files.deleteIfExists(chk.resolve("_metadata"));
            }
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** Why {@code metadata} cannot be a checkpoint's metadata, or null. */
    static String unreadable(Path metadata) {
        try (InputStream in = Files.newInputStream(metadata)) {
            byte[] head = in.readNBytes(4);
            if (head.length < 4) {
                return "_metadata is truncated (" + head.length + " bytes)";
            }
            int magic = ((head[0] & 0xff) << 24) | ((head[1] & 0xff) << 16) | ((head[2] & 0xff) << 8) | (head[3] & 0xff);
            return magic == Checkpoints.HEADER_MAGIC_NUMBER ? null : "_metadata is not a Flink checkpoint's (magic " + Integer.toHexString(magic) + ")";
        } catch (IOException e) {
            return "_metadata is unreadable: " + e.getMessage();
        }
    }

    private record Candidate(Path path, long number, long writtenAt) {}

    /** The completed checkpoints of job folder {@code job}: its {@code chk-N} folders with a {@code _metadata} file. */
    private static List<Candidate> completed(Path job) throws IOException {
        List<Candidate> found = new ArrayList<>();
        try (Stream<Path> chks = Files.list(job)) {
            for (Path chk : chks.toList()) {
                Matcher m = CHECKPOINT.matcher(chk.getFileName().toString());
                Path metadata = chk.resolve("_metadata");
                if (m.matches() && Files.isRegularFile(metadata)) {
                    found.add(new Candidate(chk, Long.parseLong(m.group(1)),
                            Files.getLastModifiedTime(metadata).toMillis()));
                }
            }
        }
        return found;
    }
}
