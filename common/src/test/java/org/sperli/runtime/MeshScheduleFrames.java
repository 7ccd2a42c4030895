package org.sperli.runtime;

import java.util.ArrayList;
import java.util.List;
import org.sperli.ElementType;
import org.sperli.protocol.payload.CollectiveHeader;

/**
 * What the Java ranks do for a schedule record of {@code docs/sperli-vectors.txt}: the schedule's name, its bounds
 * and every frame sent, taken from a run of the real schedules over {@link MemoryPorts}, for the vectors test to
 * compare with the record that {@code scripts/sperli-vectors.py} computed from the protocol's rules.
 *
 * @param schedule "dissemination", "from-root", "pieces", "owner", "owner-tree" or "segments"
 * @param bounds   segment or piece starts and the data length, space-separated; empty when the schedule has none
 * @param frames   from&gt;to:phase:length, the ranks ascending, each rank's in the order it sent them
 */
public record MeshScheduleFrames(String schedule, String bounds, String frames) {

    public static MeshScheduleFrames of(int operation, int typeCode, int opCode, int size, int root, int dataLength) {
        CollectiveCall call = new CollectiveCall(operation, typeCode, opCode, root, 1);
        MemoryPorts ports = new MemoryPorts(size);
        ports.run(port -> run(call, port, dataLength));
        return new MeshScheduleFrames(name(operation, size, dataLength),
                bounds(operation, typeCode, size, dataLength), ports.sent());
    }

    private static Object run(CollectiveCall call, CollectivePort port, int dataLength) {
        MeshCollectives mesh = new MeshCollectives(port);
        switch (call.operation()) {
            case CollectiveHeader.BARRIER -> mesh.barrier(call);
            case CollectiveHeader.BCAST -> mesh.bcast(call, port.rank() == call.root() ? new byte[dataLength] : null);
            case CollectiveHeader.REDUCE -> mesh.reduce(call, new byte[dataLength]);
            case CollectiveHeader.ALLREDUCE -> mesh.allreduce(call, new byte[dataLength]);
            default -> throw new IllegalArgumentException("operation " + call.operation() + " has no mesh schedule");
        }
        return null;
    }

    private static String name(int operation, int size, int n) {
        return switch (operation) {
            case CollectiveHeader.BARRIER -> "dissemination";
            case CollectiveHeader.BCAST -> MeshSchedule.pieces(size, n) ? "pieces" : "from-root";
            case CollectiveHeader.REDUCE -> MeshSchedule.segmented(size, n) ? "segments" : "owner";
            default -> MeshSchedule.segmented(size, n) ? "segments" : "owner-tree";
        };
    }

    private static String bounds(int operation, int typeCode, int size, int n) {
        List<String> out = new ArrayList<>();
        if (operation == CollectiveHeader.BCAST && MeshSchedule.pieces(size, n)) {
            for (int i = 0; i < size; i++) {
                out.add(Integer.toString(MeshSchedule.pieceStart(i, n, size - 1)));
            }
        } else if (operation != CollectiveHeader.BCAST && operation != CollectiveHeader.BARRIER
                && MeshSchedule.segmented(size, n)) {
            for (int k = 0; k <= size; k++) {
                out.add(Integer.toString(MeshSchedule.segmentStart(k, n, ElementType.ofCode(typeCode).width(), size)));
            }
        }
        return String.join(" ", out);
    }
}
