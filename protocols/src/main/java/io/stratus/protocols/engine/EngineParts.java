package io.stratus.protocols.engine;

import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.checkpoint.CheckpointScheduler;
import io.stratus.protocols.log.PuQueues;
import io.stratus.protocols.log.QueueSender;

/**
 * What the engine hands a {@link CommitLog} when it assembles a protocol: the shared pieces, made
 * once per handle. The log uses them; the engine owns and closes them.
 *
 * @param context the handle's protocol context
 * @param names the PU queue names of the database
 * @param sender the batching queue sender
 * @param scheduler the checkpoint executor's front (background work goes through it)
 * @param sequencing how commits are ordered
 * @param events where the log reports its commits
 */
public record EngineParts(
    ProtocolContext context,
    PuQueues names,
    QueueSender sender,
    CheckpointScheduler scheduler,
    Sequencing sequencing,
    CommitLog.CommitEvents events) {}
