package org.sperli.runtime;

/**
 * The shape of a job's collectives (protocol sections 7.4 and 7.4.1). A rank offers one; the job runs the mesh only
 * when every rank offered it (feature bit 1 in every HELLO), else the v1 star. The operator forces the star by making
 * the ranks offer it ({@code sperli run --collectives star}).
 */
public enum CollectiveShape {
    /** The v1 star around the root: feature bit 1 not announced. */
    STAR,
    /** The mesh schedules: feature bit 1 announced. */
    MESH;

    /** {@code star} or {@code mesh}, as the operator writes it; anything else is refused. */
    public static CollectiveShape of(String name) {
        return switch (name) {
            case "star" -> STAR;
            case "mesh" -> MESH;
            default -> throw new IllegalArgumentException("collectives=" + name + ", expected star or mesh");
        };
    }
}
