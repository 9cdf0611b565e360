/**
 * The AIS decoder against real sentences that no one here wrote: gpsd's test/sample.aivdm
 * (real traffic from Kurt Schwehr, Mike Greene, Nirgal and AISHub, decodes checked by the gpsd
 * project against noaadata and the Maritec decoder; BSD terms), with the values its comments
 * give. Broken inputs are made from them: one character changed, the tail cut, a part missing.
 */
import { describe, expect, it } from 'vitest';
import { decodeAis, fragmentOf } from '../../shared/adapters/ais-decoder.js';

const ok = (sentences: string[]) => {
  const out = decodeAis(sentences);
  if (!out.ok) throw new Error(`${sentences.join(' ')}: ${out.reason} (${out.detail})`);
  return out.message as unknown as Record<string, unknown>;
};

const reason = (sentences: string[]) => {
  const out = decodeAis(sentences);
  return out.ok ? 'decoded' : out.reason;
};

describe('AIS decoding of gpsd sample sentences', () => {
  it('decodes class A position reports (types 1, 2, 3)', () => {
    expect(ok(['!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CQ,0*4A'])).toMatchObject({
      kind: 'position',
      message_type: 1,
      mmsi: '371798000',
      sog_knots: 12.3,
      cog_degrees: 224,
      heading_degrees: 215,
      nav_status: 0,
    });
    const type1 = ok(['!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CQ,0*4A']);
    expect(type1.lat).toBeCloseTo(48.38163333, 5);
    expect(type1.lon).toBeCloseTo(-123.395383333, 5);
    // Heading 511 is "not available".
    expect(ok(['!AIVDM,1,1,,A,16SteH0P00Jt63hHaa6SagvJ087r,0*42'])).toMatchObject({
      mmsi: '440348000',
      sog_knots: 0,
      heading_degrees: null,
      cog_degrees: 93.4,
    });
    const type2 = ok(['!AIVDM,1,1,,B,25Cjtd0Oj;Jp7ilG7=UkKBoB0<06,0*60']);
    expect(type2).toMatchObject({
      message_type: 2,
      mmsi: '356302000',
      sog_knots: 13.9,
      cog_degrees: 87.7,
      heading_degrees: 91,
    });
    expect(type2.lat).toBeCloseTo(40.39235833, 5);
    expect(ok(['!AIVDM,1,1,,A,38Id705000rRVJhE7cl9n;160000,0*40'])).toMatchObject({
      message_type: 3,
      mmsi: '563808000',
      nav_status: 5,
      lat: 36.91,
    });
  });

  it('decodes class B position reports (types 18 and 19)', () => {
    const b = ok(['!AIVDM,1,1,,A,B52K>;h00Fc>jpUlNV@ikwpUoP06,0*4C']);
    expect(b).toMatchObject({
      message_type: 18,
      mmsi: '338087471',
      sog_knots: 0.1,
      cog_degrees: 79.6,
      heading_degrees: null,
      nav_status: null,
    });
    expect(b.lon).toBeCloseTo(-74.072131667, 5);
    expect(b.lat).toBeCloseTo(40.68454, 5);
    const extended = ok(['!AIVDM,1,1,,B,C5N3SRgPEnJGEBT>NhWAwwo862PaLELTBJ:V00000000S0D:R220,0*0B']);
    expect(extended).toMatchObject({ message_type: 19, mmsi: '367059850', sog_knots: 8.7, cog_degrees: 335.9 });
    expect(extended.lon).toBeCloseTo(-88.8103916667, 5);
    expect(extended.lat).toBeCloseTo(29.543695, 5);
    // Type 19 also carries the vessel's name, ship type and size.
    expect(extended).toMatchObject({
      name: 'CAPT.J.RIMES',
      ship_type: 70,
      dimensions: { to_bow: 5, to_stern: 21, to_port: 4, to_starboard: 4 },
    });
  });

  it('reads any talker, and leaves aside what a receiver appends after the checksum', () => {
    // libais's tests: a USCG receiver (talker SA, with its metadata) and AISHub's (with its own).
    expect(
      ok([
        '!SAVDM,2,1,6,A,55NOvQP1u>QIL@O??SL985`u>0EQ18E=>222221J1p`884i6N344Sll1@m80,0*0C,b003669956,1426118503',
        '!SAVDM,2,2,6,A,TRA1iH88880,2*6F,b003669956,1426118503',
      ]),
    ).toMatchObject({ mmsi: '367525510', name: 'BRAZOS EXPRESS', call_sign: 'WDG3387', imo: 8206870, ship_type: 90 });
    expect(ok(['!AIVDM,1,1,,B,H3pro:4q3?=1B0000000000P7220,0*59,raishub,1332550009'])).toMatchObject({
      mmsi: '261011240',
      ship_type: 57,
      call_sign: null,
    });
    // pyais's: talker AN.
    expect(ok(['!ANVDM,1,1,,B,H5NuKGTUCBD8SaUG4:omol0hC33t,0*54'])).toMatchObject({
      call_sign: 'WDJ7574',
      ship_type: 37,
    });
    // The parts of one message come from one talker.
    expect(
      reason([
        '!SAVDM,2,1,6,A,55NOvQP1u>QIL@O??SL985`u>0EQ18E=>222221J1p`884i6N344Sll1@m80,0*0C',
        '!AIVDM,2,2,6,A,TRA1iH88880,2*75',
      ]),
    ).toBe('incomplete');
  });

  it('reads a type 24 marked part B but as short as a part A as the part A it is (as libais does)', () => {
    expect(ok(['!AIVDM,1,1,,A,H69oQAlh4V1QDr377C362222220,2*69'])).toMatchObject({
      mmsi: '413000007',
      name: 'LAI XUN 11401',
      call_sign: null,
      ship_type: null,
    });
  });

  it('decodes long-range position reports (type 27) with signed coordinates', () => {
    const lr = ok(['!AIVDM,1,1,,B,KC5E2b@U19PFdLbMuc5=ROv62<7m,0*16']);
    expect(lr).toMatchObject({ message_type: 27, kind: 'position' });
    expect(Math.abs(lr.lat as number)).toBeLessThanOrEqual(90);
    expect(Math.abs(lr.lon as number)).toBeLessThanOrEqual(180);
  });

  it('joins the two parts of a type 5 and reads the static data', () => {
    expect(
      ok([
        '!AIVDM,2,1,1,A,55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8,0*1C',
        '!AIVDM,2,2,1,A,88888888880,2*25',
      ]),
    ).toEqual({
      kind: 'static',
      message_type: 5,
      mmsi: '351759000',
      name: 'EVER DIADEM',
      call_sign: '3FOF8',
      imo: 9134270,
      ship_type: 70,
      dimensions: { to_bow: 225, to_stern: 70, to_port: 1, to_starboard: 31 },
      draught_m: 12.2,
      destination: 'NEW YORK',
    });
  });

  it('reads both parts of a type 24', () => {
    expect(ok(['!AIVDM,1,1,,A,H42O55i18tMET00000000000000,2*6D'])).toMatchObject({
      message_type: 24,
      mmsi: '271041815',
      name: 'PROGUY',
    });
    expect(ok(['!AIVDM,1,1,,A,H42O55lti4hhhilD3nink000?050,0*40'])).toMatchObject({
      message_type: 24,
      mmsi: '271041815',
      call_sign: 'TC6163',
      ship_type: 60,
      dimensions: { to_bow: 0, to_stern: 15, to_port: 0, to_starboard: 5 },
    });
  });

  it('takes the receive time from an NMEA 4 tag block', () => {
    const out = decodeAis(['\\s:2573135,c:1671620143*0B\\!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CQ,0*4A']);
    expect(out.ok && out.received_at).toBe('2022-12-21T10:55:43.000Z');
  });
});

describe('AIS decoding failures', () => {
  it('names what is wrong and never throws', () => {
    // One payload character changed: the checksum no longer matches.
    expect(reason(['!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CR,0*4A'])).toBe('checksum');
    // Cut in the middle: no checksum field at all.
    expect(reason(['!AIVDM,1,1,,A,15RTgt0PAso;90TK'])).toBe('truncated');
    // gpsd's own short type 1 (163 bits, checksum good): too short for a position report.
    expect(reason(['!AIVDM,1,1,,A,13aIkM@P00PJ@qPNL=e@0?wJ28JO,5*63'])).toBe('truncated');
    // gpsd's "fragment that misses part 1".
    expect(reason(['!AIVDM,2,2,1,B,00000000000,2*26'])).toBe('incomplete');
    expect(reason(['!AIVDM,2,1,1,A,55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8,0*1C'])).toBe(
      'incomplete',
    );
    // Parts in the wrong order.
    expect(
      reason([
        '!AIVDM,2,2,1,A,88888888880,2*25',
        '!AIVDM,2,1,1,A,55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8,0*1C',
      ]),
    ).toBe('incomplete');
    // A base station report (type 4) and a binary message (type 8): not vessel reports.
    expect(reason(['!AIVDM,1,1,,A,403OviQuMGCqWrRO9>E6fE700@GO,0*4D'])).toBe('unsupported_type');
    expect(reason(['!AIVDM,1,1,,A,85Mwp`1Kf3aCnsNvBWLi=wQuNhA5t43N`5nCuI=p<IBfVqnMgPGs,0*47'])).toBe(
      'unsupported_type',
    );
    expect(reason(['$GPGGA,064036.289,4836.5375,N,00740.9373,E,1,04,3.2,200.2,M,,,,0000*0E'])).toBe('malformed');
    expect(reason([''])).toBe('truncated');
    expect(reason([])).toBe('malformed');
  });
});

describe('fragmentOf', () => {
  it("names a sentence's place in a multi-part message, tag block or receiver's trailer aside", () => {
    expect(fragmentOf('!AIVDM,2,1,1,A,55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8,0*1C')).toEqual({
      count: 2,
      part: 1,
      sequence: '1',
      channel: 'A',
    });
    expect(fragmentOf('\\s:2573345,c:1671533231*08\\!BSVDM,2,2,8,B,00000000000,2*36,rMT')).toEqual({
      count: 2,
      part: 2,
      sequence: '8',
      channel: 'B',
    });
    // A one-part message, and what is not an AIS sentence.
    expect(fragmentOf('!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CQ,0*4A')).toBeNull();
    expect(fragmentOf('$GPGGA,064036.289,4836.5375,N,00740.9373,E,1,04,3.2,200.2,M,,,,0000*0E')).toBeNull();
  });
});
