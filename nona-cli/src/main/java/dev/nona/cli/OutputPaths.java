package dev.nona.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Where a verb writes, checked before it starts: an experiment or a demo runs for minutes and then writes, and a
 * folder that is a file, or one it may not write in, must fail at once with the flag's name, not after the run with
 * the file system's exception.
 */
final class OutputPaths {
    private OutputPaths() {
    }

    /**
     * {@code dir}, created with its parents if absent; an error naming {@code flag} and the value when it is a file,
     * cannot be created, or is not writable.
     */
    static Path directory(String flag, Path dir) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException(flag + " (" + dir + ") is a file, not a folder");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IllegalArgumentException(flag + " (" + dir + ") cannot be created: " + reason(e));
        }
        if (!Files.isWritable(dir)) {
            throw new IllegalArgumentException(flag + " (" + dir + ") is not writable");
        }
        return dir;
    }

    /**
     * {@code file}'s folder, as {@link #directory}; an error naming {@code flag} when {@code file} is a folder, or a
     * file that may not be written.
     */
    static Path file(String flag, Path file) {
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(flag + " (" + file + ") is a folder, not a file");
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            if (Files.exists(parent) && !Files.isDirectory(parent)) {
                throw new IllegalArgumentException(flag + " (" + file + ") is under " + parent + ", a file, not a folder");
            }
            try {
                Files.createDirectories(parent);
            } catch (IOException e) {
                throw new IllegalArgumentException(flag + " (" + file + "): its folder cannot be created: " + reason(e));
            }
            if (!Files.isWritable(parent) && !Files.isWritable(file)) {
                throw new IllegalArgumentException(flag + " (" + file + ") cannot be written: " + parent + " is not writable");
            }
        }
        if (Files.exists(file) && !Files.isWritable(file)) {
            throw new IllegalArgumentException(flag + " (" + file + ") is not writable");
        }
        return file;
    }

    /** The file system's reason, without the path it repeats (e.g. "Permission denied"), else the exception's name. */
    private static String reason(IOException e) {
        if (e instanceof FileAlreadyExistsException exists) {
            return exists.getFile() + " is a file";
        }
        if (e instanceof NoSuchFileException missing) {
            return "no such file or folder (" + missing.getFile() + ")";
        }
        if (e instanceof AccessDeniedException denied) {
            return "permission denied (" + denied.getFile() + ")";
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getFile() == null ? fs.getReason() : fs.getReason() + " (" + fs.getFile() + ")";
        }
        String name = e.getClass().getSimpleName();
        return e.getMessage() == null ? name : name + ": " + e.getMessage();
    }
}
