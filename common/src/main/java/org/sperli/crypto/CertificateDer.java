package org.sperli.crypto;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HexFormat;
import java.util.function.UnaryOperator;

/**
 * The DER of a job's certificates, written field by field: the job CA's, once per job, and a rank's (a leaf), one per
 * rank and incarnation, 4096 at the largest job. Bouncy Castle's certificate builder made much garbage on each leaf
 * (a date formatter per time, an object per ASN.1 node, the JDK's parse of the result), a large share of a 4096-rank
 * launcher's work, and its first date formatter cost a fresh launcher a locale set-up before its first rank could
 * start (see docs/performance.md, section 3.6). Every certificate of a shape is the same bytes but for the fields
 * marked below, so the rest are constants. {@code CertificateDerTest} checks that the bytes are those Bouncy Castle's
 * builder makes for the same fields.
 *
 * <pre>
 *   Certificate SEQUENCE {
 *     TBSCertificate SEQUENCE {
 *       version              [0] { INTEGER 2 }                         A0 03 02 01 02
 *       serialNumber         INTEGER                                   per certificate (positive, 1..17 bytes)
 *       signature            SEQUENCE { OID 1.3.101.112 }              30 05 06 03 2B 65 70 (Ed25519, RFC 8410)
 *       issuer               leaf: the CA's subject, as its certificate holds it; CA: its own subject
 *       validity             SEQUENCE { notBefore, notAfter }         per certificate: UTCTime "YYMMDDHHMMSSZ" for
 *                                                                      1950..2049, else GeneralizedTime (RFC 5280)
 *       subject              SEQUENCE { SET { SEQUENCE { OID 2.5.4.3, UTF8String CN } } }   per certificate
 *       subjectPublicKeyInfo 30 2A 30 05 06 03 2B 65 70 03 21 00 + 32 key bytes               per certificate
 *       extensions           [3] { SEQUENCE { ... } }, of a leaf:
 *         basicConstraints   critical, cA false                       30 0C 06 03 55 1D 13 01 01 FF 04 02 30 00
 *         keyUsage           critical, digitalSignature               30 0E 06 03 55 1D 0F 01 01 FF 04 04 03 02 07 80
 *         extKeyUsage        serverAuth, clientAuth                   {@link #EXTENDED_KEY_USAGE}
 *         subjectAltName     one dNSName [2] or iPAddress [7]         per certificate
 *         subjectKeyId       SHA-1 of the 32 key bytes (RFC 5280 4.2.1.2 method 1)          per certificate
 *         authorityKeyId     SEQUENCE { [0] the CA's subjectKeyId }   the issuer's
 *       of the CA:
 *         basicConstraints   critical, cA true, pathLen 0             {@link #BASIC_CONSTRAINTS_CA}
 *         keyUsage           critical, keyCertSign                    30 0E 06 03 55 1D 0F 01 01 FF 04 04 03 02 02 04
 *         subjectKeyId       as above
 *     }
 *     signatureAlgorithm     30 05 06 03 2B 65 70
 *     signatureValue         BIT STRING: 00 + 64 signature bytes      by the issuer's key (the CA's own for the CA)
 *   }
 * </pre>
 *
 * <p>Lengths of 128 bytes and more take the long form (81 xx, 82 xx xx); a DNS name of up to 253 characters keeps every
 * length below 64 KiB. Safe from any thread: nothing is kept between calls.
 */
final class CertificateDer {
    private static final int SEQUENCE = 0x30;
    private static final int SET = 0x31;
    private static final int INTEGER = 0x02;
    private static final int OCTET_STRING = 0x04;
    private static final int BIT_STRING = 0x03;
    private static final int UTF8_STRING = 0x0c;
    private static final int UTC_TIME = 0x17;
    private static final int GENERALIZED_TIME = 0x18;
    private static final int EXTENSIONS_TAG = 0xa3;
    private static final int DNS_NAME_TAG = 0x82;
    private static final int IP_ADDRESS_TAG = 0x87;
    private static final int SHORT_LENGTH_LIMIT = 0x80;
    private static final int BYTE = 0xff;
    private static final int BITS_PER_BYTE = 8;
    private static final int FIRST_UTC_YEAR = 1950;
    private static final int LAST_UTC_YEAR = 2049;
    private static final int IPV4_OCTETS = 4;
    private static final int MAX_YEAR = 9999;
    private static final int CENTURY = 100;
    private static final int DECIMAL = 10;
    /** "YYMMDDHHMMSSZ" and "YYYYMMDDHHMMSSZ". */
    private static final int UTC_TIME_LENGTH = 13;
    private static final int GENERALIZED_TIME_LENGTH = 15;

    private static final byte[] VERSION_3 = hex("a003020102");
    private static final byte[] ED25519_ALGORITHM = hex("300506032b6570");
    private static final byte[] COMMON_NAME_OID = hex("0603550403");
    private static final byte[] BASIC_CONSTRAINTS_NOT_CA = hex("300c0603551d130101ff04023000");
    private static final byte[] KEY_USAGE_DIGITAL_SIGNATURE = hex("300e0603551d0f0101ff040403020780");
    /** extKeyUsage (not critical): id-kp-serverAuth, id-kp-clientAuth. */
    private static final byte[] EXTENDED_KEY_USAGE =
            hex("301d0603551d250416301406082b0601050507030106082b06010505070302");
    private static final byte[] SUBJECT_ALT_NAME_OID = hex("0603551d11");
    private static final byte[] SUBJECT_KEY_ID_OID = hex("0603551d0e");
    private static final byte[] AUTHORITY_KEY_ID_OID = hex("0603551d23");
    private static final int KEY_ID_TAG = 0x80;
    /** basicConstraints (critical): cA true, pathLenConstraint 0: a job CA signs rank certificates only. */
    private static final byte[] BASIC_CONSTRAINTS_CA = hex("30120603551d130101ff040830060101ff020100");
    private static final byte[] KEY_USAGE_CERT_SIGN = hex("300e0603551d0f0101ff040403020204");
    private static final int SIGNATURE_LENGTH = 64;

    private CertificateDer() {
    }

    /**
     * A leaf certificate's DER, signed by {@code issuer}.
     *
     * @param serial positive
     * @param hostKind whether {@code host}, in the strict v1 syntax, is a dotted IPv4 address or a DNS name
     * @param notBefore and {@code notAfter}: written in whole seconds (a fraction is left out)
     */
    static byte[] leaf(CertificateBuilder.Issuer issuer, BigInteger serial, String commonName, PublicKey subjectKey,
                       String host, CertificateBuilder.HostKind hostKind, Instant notBefore, Instant notAfter) {
        byte[] key = Ed25519Keys.rawPublicKey(subjectKey);
        byte[] extensions = concat(BASIC_CONSTRAINTS_NOT_CA, KEY_USAGE_DIGITAL_SIGNATURE, EXTENDED_KEY_USAGE,
                subjectAltName(host, hostKind), subjectKeyId(key), issuer.authorityKeyIdExtensionDer());
        return certificate(issuer.nameDer(), serial, notBefore, notAfter, commonName, key, extensions, issuer::sign);
    }

    /** A self-signed CA certificate's DER, signed by {@code sign} with the key of {@code publicKey}. */
    static byte[] selfSignedCa(String commonName, PublicKey publicKey, BigInteger serial, Instant notBefore,
                               Instant notAfter, UnaryOperator<byte[]> sign) {
        byte[] key = Ed25519Keys.rawPublicKey(publicKey);
        byte[] extensions = concat(BASIC_CONSTRAINTS_CA, KEY_USAGE_CERT_SIGN, subjectKeyId(key));
        return certificate(singleCommonName(commonName), serial, notBefore, notAfter, commonName, key, extensions,
                sign);
    }

    /** The authorityKeyIdentifier extension (not critical) naming the key of {@code caKey}, for its leaves. */
    static byte[] authorityKeyIdExtension(PublicKey caKey) {
        byte[] keyId = keyId(Ed25519Keys.rawPublicKey(caKey));
        return sequence(AUTHORITY_KEY_ID_OID, tlv(OCTET_STRING, sequence(tlv(KEY_ID_TAG, keyId))));
    }

    private static byte[] certificate(byte[] issuerName, BigInteger serial, Instant notBefore, Instant notAfter,
                                      String commonName, byte[] key, byte[] extensions, UnaryOperator<byte[]> sign) {
        if (serial.signum() <= 0) {
            throw new IllegalArgumentException("serial must be positive");
        }
        byte[] tbs = sequence(VERSION_3, tlv(INTEGER, serial.toByteArray()), ED25519_ALGORITHM, issuerName,
                sequence(time(notBefore), time(notAfter)), singleCommonName(commonName),
                Ed25519Keys.publicKeySpec(key).getEncoded(),
                tlv(EXTENSIONS_TAG, tlv(SEQUENCE, extensions)));
        byte[] signature = sign.apply(tbs);
        if (signature.length != SIGNATURE_LENGTH) {
            throw new IllegalStateException("Ed25519 signature of " + signature.length + " bytes");
        }
        return sequence(tbs, ED25519_ALGORITHM, tlv(BIT_STRING, concat(new byte[1], signature)));
    }

    private static byte[] singleCommonName(String commonName) {
        return sequence(tlv(SET, sequence(COMMON_NAME_OID, tlv(UTF8_STRING,
                commonName.getBytes(StandardCharsets.UTF_8)))));
    }

    private static byte[] subjectAltName(String host, CertificateBuilder.HostKind kind) {
        byte[] name = kind == CertificateBuilder.HostKind.IP_ADDRESS
                ? tlv(IP_ADDRESS_TAG, ipv4(host))
                : tlv(DNS_NAME_TAG, host.getBytes(StandardCharsets.US_ASCII));
        return sequence(SUBJECT_ALT_NAME_OID, tlv(OCTET_STRING, sequence(name)));
    }

    private static byte[] ipv4(String host) {
        String[] parts = host.split("\\.", -1);
        if (parts.length != IPV4_OCTETS) {
            throw new IllegalArgumentException("not a dotted IPv4 address: " + host);
        }
        byte[] address = new byte[IPV4_OCTETS];
        for (int i = 0; i < IPV4_OCTETS; i++) {
            int octet = Integer.parseInt(parts[i]);
            if (octet < 0 || octet > BYTE) {
                throw new IllegalArgumentException("not a dotted IPv4 address: " + host);
            }
            address[i] = (byte) octet;
        }
        return address;
    }

    private static byte[] subjectKeyId(byte[] key) {
        return sequence(SUBJECT_KEY_ID_OID, tlv(OCTET_STRING, tlv(OCTET_STRING, keyId(key))));
    }

    /** RFC 5280 4.2.1.2 method 1: the SHA-1 of the key's bits. */
    private static byte[] keyId(byte[] key) {
        try {
            return MessageDigest.getInstance("SHA-1").digest(key);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 missing from the JDK", e);
        }
    }

    private static byte[] time(Instant instant) {
        ZonedDateTime t = instant.atZone(ZoneOffset.UTC);
        int year = t.getYear();
        boolean utc = year >= FIRST_UTC_YEAR && year <= LAST_UTC_YEAR;
        if (year < 0 || year > MAX_YEAR) {
            throw new IllegalArgumentException("certificate time " + instant + " has no four-digit year");
        }
        byte[] text = new byte[utc ? UTC_TIME_LENGTH : GENERALIZED_TIME_LENGTH];
        int at = 0;
        if (!utc) {
            at = twoDigits(text, at, year / CENTURY);
        }
        at = twoDigits(text, at, year % CENTURY);
        at = twoDigits(text, at, t.getMonthValue());
        at = twoDigits(text, at, t.getDayOfMonth());
        at = twoDigits(text, at, t.getHour());
        at = twoDigits(text, at, t.getMinute());
        at = twoDigits(text, at, t.getSecond());
        text[at] = 'Z';
        return tlv(utc ? UTC_TIME : GENERALIZED_TIME, text);
    }

    private static int twoDigits(byte[] text, int at, int value) {
        text[at] = (byte) ('0' + value / DECIMAL);
        text[at + 1] = (byte) ('0' + value % DECIMAL);
        return at + 2;
    }

    private static byte[] sequence(byte[]... parts) {
        return tlv(SEQUENCE, concat(parts));
    }

    /** Tag, DER length (short form below 128, else long form), content. */
    static byte[] tlv(int tag, byte[] content) {
        int length = content.length;
        int octets = length < SHORT_LENGTH_LIMIT ? 0
                : (Integer.SIZE - Integer.numberOfLeadingZeros(length) + BITS_PER_BYTE - 1) / BITS_PER_BYTE;
        int header = 2 + octets;
        byte[] out = new byte[header + length];
        out[0] = (byte) tag;
        if (octets == 0) {
            out[1] = (byte) length;
        } else {
            out[1] = (byte) (SHORT_LENGTH_LIMIT | octets);
            for (int i = 0; i < octets; i++) {
                out[header - 1 - i] = (byte) (length >>> (i * BITS_PER_BYTE));
            }
        }
        System.arraycopy(content, 0, out, header, length);
        return out;
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] out = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, out, at, part.length);
            at += part.length;
        }
        return out;
    }

    private static byte[] hex(String digits) {
        return HexFormat.of().parseHex(digits);
    }
}
