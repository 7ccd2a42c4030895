package org.sperli.protocol.payload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.function.Executable;
import org.sperli.ErrorCode;
import org.sperli.SperliException;

/** Assertions shared by the payload tests: the exact code, and a reason that names the field. */
final class Refusals {
    private Refusals() {
    }

    static SperliException assertRefused(ErrorCode code, String field, Executable decode) {
        SperliException e = assertThrows(SperliException.class, decode);
        assertEquals(code, e.code(), e::getMessage);
        assertTrue(e.reason().startsWith(field + "="), e::getMessage);
        assertTrue(e.getMessage().startsWith(code.name() + " "), e::getMessage);
        return e;
    }

    static IllegalArgumentException assertNotEncodable(String field, Executable encode) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, encode);
        assertTrue(e.getMessage().contains(field + "="), e::getMessage);
        return e;
    }
}
