package dev.nona.controller.loop;

import java.io.Serializable;

/**
 * The newest version of this controller's tables published on {@code placement-tables}, read when the control loop
 * opens: on its first start and after every restart inside the running job (a TaskManager lost, a JobManager
 * failover). A restore from a checkpoint older than the last tables published brings back an older table; its
 * next table must follow the newest version published, not the restored one, so that versions never go back. The
 * read is bounded in time by the implementation; when it fails the control loop numbers on from what it knows
 * (the version read when the job was built, or the restored table's).
 */
@FunctionalInterface
public interface PublishedTableVersions extends Serializable {
    /** Nothing read (a job without {@code placement-tables}, a test): 0. */
    PublishedTableVersions NONE = () -> 0;

    /** The newest version published now ({@code >= 0}, 0 when none); throws when it cannot be read in time. */
    long newest() throws Exception;
}
