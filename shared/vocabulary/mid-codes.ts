/**
 * Where an MMSI's Maritime Identification Digits are and which flag state they name, by ISO code
 * only: what lists need, small enough for every bundle. The administrations' names are the ITU
 * table's (shared/vocabulary/maritime-mid.ts, whose test checks this list against it).
 */

/** The kinds of station an MMSI can name (ITU-R M.585-9, annexes 1 to 3). */
export type MmsiKind =
  | 'ship'
  | 'group'
  | 'coast_station'
  | 'sar_aircraft'
  | 'auxiliary_craft'
  | 'aid_to_navigation'
  | 'handheld'
  | 'sart'
  | 'mob'
  | 'epirb_ais'
  | 'invalid';

/** A MID position holds a MID only if its first digit is 2..7 (the ITU's regions). */
const MID_AT = /^[2-7]\d\d$/;

/**
 * Which kind of station the MMSI names, by its leading digits (ITU-R M.585-9):
 * `MIDxxxxxx` ship (first digit 2..7), `0MIDxxxxx` group of ships, `00MIDxxxx` coast station,
 * `111MIDxxx` SAR aircraft, `8MIDxxxxx` handheld VHF, `98MIDxxxx` craft auxiliary to a parent
 * ship, `99MIDxxxx` AIS aid to navigation, `970xxyyyy` AIS-SART, `972xxyyyy` MOB device,
 * `974xxyyyy` EPIRB-AIS. Anything else, or anything not nine digits, is `invalid`.
 */
export function mmsiKind(mmsi: string): MmsiKind {
  if (!/^\d{9}$/.test(mmsi)) return 'invalid';
  const first = mmsi[0]!;
  if (first >= '2' && first <= '7') return 'ship';
  if (mmsi.startsWith('00')) return MID_AT.test(mmsi.slice(2, 5)) ? 'coast_station' : 'invalid';
  if (first === '0') return MID_AT.test(mmsi.slice(1, 4)) ? 'group' : 'invalid';
  if (mmsi.startsWith('111')) return MID_AT.test(mmsi.slice(3, 6)) ? 'sar_aircraft' : 'invalid';
  if (first === '8') return MID_AT.test(mmsi.slice(1, 4)) ? 'handheld' : 'invalid';
  if (mmsi.startsWith('970')) return 'sart';
  if (mmsi.startsWith('972')) return 'mob';
  if (mmsi.startsWith('974')) return 'epirb_ais';
  if (mmsi.startsWith('98')) return MID_AT.test(mmsi.slice(2, 5)) ? 'auxiliary_craft' : 'invalid';
  if (mmsi.startsWith('99')) return MID_AT.test(mmsi.slice(2, 5)) ? 'aid_to_navigation' : 'invalid';
  return 'invalid';
}

/** Where the MID sits in an MMSI of each kind that has one. */
const MID_OFFSET: Partial<Record<MmsiKind, number>> = {
  ship: 0,
  group: 1,
  coast_station: 2,
  sar_aircraft: 3,
  handheld: 1,
  auxiliary_craft: 2,
  aid_to_navigation: 2,
};

/** The MID an MMSI carries, by its kind; null for a kind without one (SART, MOB, EPIRB) or a malformed MMSI. */
export function midOf(mmsi: string): string | null {
  const offset = MID_OFFSET[mmsiKind(mmsi)];
  return offset === undefined ? null : mmsi.slice(offset, offset + 3);
}

/** Every allocated MID and its flag state's ISO 3166-1 alpha-2 code, five characters each (306: NL, see the ITU table). */
export const MID_CODES =
  '201AL202AD203AT204PT205BE206BY207BG208VA209CY210CY211DE212CY213GE214MD215MT216AM218DE219DK220DK224ES225ES226FR227FR228FR229MT230FI231FO232GB233GB234GB235GB236GI237GR238HR239GR240GR241GR242MA243HU244NL245NL246NL247IT248MT249MT250IE251IS252LI253LU254MC255PT256MT257NO258NO259NO261PL262ME263PT264RO265SE266SE267SK268SM269CH270CZ271TR272UA273RU274MK275LV276EE277LT278SI279RS301AI303US304AG305AG306NL307AW308BS309BS310BM311BS312BZ314BB316CA319KY321CR323CU325DM327DO329GP330GD331GL332GT334HN336HT338US339JM341KN343LC345MX347MQ348MS350NI351PA352PA353PA354PA355PA356PA357PA358PR359SV361PM362TT364TC366US367US368US369US370PA371PA372PA373PA374PA375VC376VC377VC378VG379VI401AF403SA405BD408BH410BT412CN413CN414CN416TW417LK419IN422IR423AZ425IQ428IL431JP432JP434TM436KZ437UZ438JO440KR441KR443PS445KP447KW450LB451KG453MO455MV457MN459NP461OM463PK466QA468SY470AE471AE472TJ473YE475YE477HK478BA501TF503AU506MM508BN510FM511PW512NZ514KH515KH516CX518CK520FJ523CC525ID529KI531LA533MY536MP538MH540NC542NU544NR546PF548PH550TL553PG555PN557SB559AS561WS563SG564SG565SG566SG567TH570TO572TV574VN576VU577VU578WF601ZA603AO605DZ607TF608SH609BI610BJ611BW612CF613CM615CG616KM617CV618TF619CI620KM621DJ622EG624ET625ER626GA627GH629GM630GW631GQ632GN633BF634KE635TF636LR637LR638SS642LY644LS645MU647MG649ML650MZ654MR655MW656NE657NG659NA660RE661RW662SD663SN664SC665SH666SO667SL668ST669SZ670TD671TG672TN674TZ675UG676CD677TZ678ZM679ZW701AR710BR720BO725CL730CO735EC740FK745GF750GY755PY760PE765SR770UY775VE';

const CODE_OF: ReadonlyMap<string, string> = /* @__PURE__ */ (() =>
  new Map(
    Array.from({ length: MID_CODES.length / 5 }, (_, i) => [
      MID_CODES.slice(i * 5, i * 5 + 3),
      MID_CODES.slice(i * 5 + 3, i * 5 + 5),
    ]),
  ))();

/** The flag state of an MMSI (its MID and ISO code), or null when it carries no allocated MID. */
export function flagStateOf(mmsi: string): { mid: string; country_code: string } | null {
  const mid = midOf(mmsi);
  const code = mid ? CODE_OF.get(mid) : undefined;
  return mid && code ? { mid, country_code: code } : null;
}
