/** Types of the parts of `ggencoder` (CommonJS, untyped) that shared/adapters/ais-decoder.ts uses. */
declare module 'ggencoder' {
  export class AisDecode {
    constructor(sentence: string, session?: Record<string, unknown>);
    valid: boolean;
    error: string;
    bitarray: number[];
    aistype: number;
    mmsi: string;
    navstatus?: number;
    lat?: number;
    lon?: number;
    sog?: number;
    cog?: number;
    hdg?: number;
    imo?: number;
    callsign?: string;
    shipname?: string;
    cargo?: number;
    dimA?: number;
    dimB?: number;
    dimC?: number;
    dimD?: number;
    draught?: number;
    destination?: string;
    part?: number;
    GetInt(start: number, len: number, signed?: boolean): number;
    /** Six-bit text from `start`, `len` bits, up to the first `@` (padding). */
    GetStr(start: number, len: number): string;
  }
  export class AisEncode {
    constructor(message: Record<string, unknown>);
    valid: boolean;
    nmea: string;
  }
  const ggencoder: { AisDecode: typeof AisDecode; AisEncode: typeof AisEncode };
  export default ggencoder;
}
