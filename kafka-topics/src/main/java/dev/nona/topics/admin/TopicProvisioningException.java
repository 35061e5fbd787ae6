package dev.nona.topics.admin;

/** The cluster refused a topic or did not answer in time; the message names the topic and Kafka's reason. */
public final class TopicProvisioningException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TopicProvisioningException(String message, Throwable cause) {
        super(message, cause);
    }
}
