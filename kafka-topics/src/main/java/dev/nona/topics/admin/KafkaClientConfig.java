package dev.nona.topics.admin;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Properties;

/**
 * Kafka client properties for the command line: an optional Java properties file (e.g. {@code security.protocol},
 * {@code sasl.*}, {@code ssl.*}) passed through to the client unchanged, with {@code --bootstrap} overriding
 * {@code bootstrap.servers}.
 */
public final class KafkaClientConfig {
    private KafkaClientConfig() {
    }

    /**
     * @param file      a properties file, or null for none
     * @param bootstrap {@code HOST:PORT[,HOST:PORT...]}, or null to take {@code bootstrap.servers} from the file
     * @return the client properties
     * @throws IllegalArgumentException naming the file or the missing setting
     */
    public static Properties load(Path file, String bootstrap) {
        Properties props = file == null ? new Properties() : readFile(file);
        if (bootstrap != null) {
            if (bootstrap.isBlank()) {
                throw new IllegalArgumentException("bootstrap ('" + bootstrap + "') must be HOST:PORT[,HOST:PORT...]");
            }
            props.setProperty("bootstrap.servers", bootstrap);
        }
        String servers = props.getProperty("bootstrap.servers");
        if (servers == null || servers.isBlank()) {
            throw new IllegalArgumentException("bootstrap servers missing: pass --bootstrap HOST:PORT or set bootstrap.servers in the config file");
        }
        return props;
    }

    /**
     * A {@code --config} properties file (UTF-8), the one reading of the verbs' and the controller's.
     *
     * @throws IllegalArgumentException naming the file: it does not exist, or cannot be read or parsed
     */
    public static Properties readFile(Path file) {
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            props.load(in);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("config file (" + file + ") does not exist");
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("config file (" + file + ") is not readable: " + e.getMessage());
        }
        return props;
    }
}
