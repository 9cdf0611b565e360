/**
 * The ITU Maritime Identification Digits (MID) table, as data, and reading an MMSI's flag from it.
 *
 * An MMSI (Maritime Mobile Service Identity, ITU-R M.585) carries three Maritime Identification
 * Digits naming the administration (flag state or territory) that assigned it; where they sit in
 * the nine digits depends on the kind of station (`mmsiKind`). `flagOfMmsi` reads them and answers
 * the ISO 3166-1 alpha-2 code and the name the ITU gives the administration.
 *
 * Source of the table: the ITU's MARS list "Table of Maritime Identification Digits"
 * (https://www.itu.int/en/ITU-R/terrestrial/fmd/Pages/mid.aspx), transcribed row for row, names as
 * the ITU writes them, from the verbatim copy of that page in the nmea-parser project
 * (github.com/zaari/nmea-parser, mid-to-iso3166.py) and checked against the MID list of
 * Bernhard R. Fischer's mid.js (2023, compiled from the same ITU page, with ISO codes). One name is
 * newer than that copy: 271 is "Türkiye" (renamed at the ITU in 2022, as in mid.js).
 *
 * The ISO codes are ours, chosen as follows: a territory with its own ISO 3166-1 code gets that
 * code (Gibraltar GI, Hong Kong HK, Greenland GL, Puerto Rico PR, ...); one without gets its
 * state's (Azores and Madeira PT, Alaska US); the French southern lands (Kerguelen, Crozet,
 * Saint Paul and Amsterdam, Adélie Land) get TF, the French Southern and Antarctic Lands that
 * administer them; Ascension Island gets SH (Saint Helena, Ascension and Tristan da Cunha).
 * MID 306 is shared by three territories of the Kingdom of the Netherlands, which an MMSI cannot
 * tell apart: the table lists all three (BQ, CW, SX) and `flagOfMmsi` answers the kingdom (NL).
 */

/** One row of the ITU table: a MID and the administration it is allocated to. */
export interface MidAllocation {
  /** Three digits, 201..775. */
  mid: string;
  /** ISO 3166-1 alpha-2. */
  country_code: string;
  /** The administration as the ITU names it, e.g. "Liberia (Republic of)" or "Denmark - Greenland". */
  country: string;
}

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

const ROWS: readonly (readonly [mid: string, countryCode: string, country: string])[] = [
  ['201', 'AL', 'Albania (Republic of)'],
  ['202', 'AD', 'Andorra (Principality of)'],
  ['203', 'AT', 'Austria'],
  ['204', 'PT', 'Portugal - Azores'],
  ['205', 'BE', 'Belgium'],
  ['206', 'BY', 'Belarus (Republic of)'],
  ['207', 'BG', 'Bulgaria (Republic of)'],
  ['208', 'VA', 'Vatican City State'],
  ['209', 'CY', 'Cyprus (Republic of)'],
  ['210', 'CY', 'Cyprus (Republic of)'],
  ['211', 'DE', 'Germany (Federal Republic of)'],
  ['212', 'CY', 'Cyprus (Republic of)'],
  ['213', 'GE', 'Georgia'],
  ['214', 'MD', 'Moldova (Republic of)'],
  ['215', 'MT', 'Malta'],
  ['216', 'AM', 'Armenia (Republic of)'],
  ['218', 'DE', 'Germany (Federal Republic of)'],
  ['219', 'DK', 'Denmark'],
  ['220', 'DK', 'Denmark'],
  ['224', 'ES', 'Spain'],
  ['225', 'ES', 'Spain'],
  ['226', 'FR', 'France'],
  ['227', 'FR', 'France'],
  ['228', 'FR', 'France'],
  ['229', 'MT', 'Malta'],
  ['230', 'FI', 'Finland'],
  ['231', 'FO', 'Denmark - Faroe Islands'],
  ['232', 'GB', 'United Kingdom of Great Britain and Northern Ireland'],
  ['233', 'GB', 'United Kingdom of Great Britain and Northern Ireland'],
  ['234', 'GB', 'United Kingdom of Great Britain and Northern Ireland'],
  ['235', 'GB', 'United Kingdom of Great Britain and Northern Ireland'],
  ['236', 'GI', 'United Kingdom of Great Britain and Northern Ireland - Gibraltar'],
  ['237', 'GR', 'Greece'],
  ['238', 'HR', 'Croatia (Republic of)'],
  ['239', 'GR', 'Greece'],
  ['240', 'GR', 'Greece'],
  ['241', 'GR', 'Greece'],
  ['242', 'MA', 'Morocco (Kingdom of)'],
  ['243', 'HU', 'Hungary'],
  ['244', 'NL', 'Netherlands (Kingdom of the)'],
  ['245', 'NL', 'Netherlands (Kingdom of the)'],
  ['246', 'NL', 'Netherlands (Kingdom of the)'],
  ['247', 'IT', 'Italy'],
  ['248', 'MT', 'Malta'],
  ['249', 'MT', 'Malta'],
  ['250', 'IE', 'Ireland'],
  ['251', 'IS', 'Iceland'],
  ['252', 'LI', 'Liechtenstein (Principality of)'],
  ['253', 'LU', 'Luxembourg'],
  ['254', 'MC', 'Monaco (Principality of)'],
  ['255', 'PT', 'Portugal - Madeira'],
  ['256', 'MT', 'Malta'],
  ['257', 'NO', 'Norway'],
  ['258', 'NO', 'Norway'],
  ['259', 'NO', 'Norway'],
  ['261', 'PL', 'Poland (Republic of)'],
  ['262', 'ME', 'Montenegro'],
  ['263', 'PT', 'Portugal'],
  ['264', 'RO', 'Romania'],
  ['265', 'SE', 'Sweden'],
  ['266', 'SE', 'Sweden'],
  ['267', 'SK', 'Slovak Republic'],
  ['268', 'SM', 'San Marino (Republic of)'],
  ['269', 'CH', 'Switzerland (Confederation of)'],
  ['270', 'CZ', 'Czech Republic'],
  ['271', 'TR', 'Türkiye'],
  ['272', 'UA', 'Ukraine'],
  ['273', 'RU', 'Russian Federation'],
  ['274', 'MK', 'North Macedonia (Republic of)'],
  ['275', 'LV', 'Latvia (Republic of)'],
  ['276', 'EE', 'Estonia (Republic of)'],
  ['277', 'LT', 'Lithuania (Republic of)'],
  ['278', 'SI', 'Slovenia (Republic of)'],
  ['279', 'RS', 'Serbia (Republic of)'],
  ['301', 'AI', 'United Kingdom of Great Britain and Northern Ireland - Anguilla'],
  ['303', 'US', 'United States of America - Alaska (State of)'],
  ['304', 'AG', 'Antigua and Barbuda'],
  ['305', 'AG', 'Antigua and Barbuda'],
  ['306', 'BQ', 'Netherlands (Kingdom of the) - Bonaire, Sint Eustatius and Saba'],
  ['306', 'CW', 'Netherlands (Kingdom of the) - Curaçao'],
  ['306', 'SX', 'Netherlands (Kingdom of the) - Sint Maarten (Dutch part)'],
  ['307', 'AW', 'Netherlands (Kingdom of the) - Aruba'],
  ['308', 'BS', 'Bahamas (Commonwealth of the)'],
  ['309', 'BS', 'Bahamas (Commonwealth of the)'],
  ['310', 'BM', 'United Kingdom of Great Britain and Northern Ireland - Bermuda'],
  ['311', 'BS', 'Bahamas (Commonwealth of the)'],
  ['312', 'BZ', 'Belize'],
  ['314', 'BB', 'Barbados'],
  ['316', 'CA', 'Canada'],
  ['319', 'KY', 'United Kingdom of Great Britain and Northern Ireland - Cayman Islands'],
  ['321', 'CR', 'Costa Rica'],
  ['323', 'CU', 'Cuba'],
  ['325', 'DM', 'Dominica (Commonwealth of)'],
  ['327', 'DO', 'Dominican Republic'],
  ['329', 'GP', 'France - Guadeloupe (French Department of)'],
  ['330', 'GD', 'Grenada'],
  ['331', 'GL', 'Denmark - Greenland'],
  ['332', 'GT', 'Guatemala (Republic of)'],
  ['334', 'HN', 'Honduras (Republic of)'],
  ['336', 'HT', 'Haiti (Republic of)'],
  ['338', 'US', 'United States of America'],
  ['339', 'JM', 'Jamaica'],
  ['341', 'KN', 'Saint Kitts and Nevis (Federation of)'],
  ['343', 'LC', 'Saint Lucia'],
  ['345', 'MX', 'Mexico'],
  ['347', 'MQ', 'France - Martinique (French Department of)'],
  ['348', 'MS', 'United Kingdom of Great Britain and Northern Ireland - Montserrat'],
  ['350', 'NI', 'Nicaragua'],
  ['351', 'PA', 'Panama (Republic of)'],
  ['352', 'PA', 'Panama (Republic of)'],
  ['353', 'PA', 'Panama (Republic of)'],
  ['354', 'PA', 'Panama (Republic of)'],
  ['355', 'PA', 'Panama (Republic of)'],
  ['356', 'PA', 'Panama (Republic of)'],
  ['357', 'PA', 'Panama (Republic of)'],
  ['358', 'PR', 'United States of America - Puerto Rico'],
  ['359', 'SV', 'El Salvador (Republic of)'],
  ['361', 'PM', 'France - Saint Pierre and Miquelon (Territorial Collectivity of)'],
  ['362', 'TT', 'Trinidad and Tobago'],
  ['364', 'TC', 'United Kingdom of Great Britain and Northern Ireland - Turks and Caicos Islands'],
  ['366', 'US', 'United States of America'],
  ['367', 'US', 'United States of America'],
  ['368', 'US', 'United States of America'],
  ['369', 'US', 'United States of America'],
  ['370', 'PA', 'Panama (Republic of)'],
  ['371', 'PA', 'Panama (Republic of)'],
  ['372', 'PA', 'Panama (Republic of)'],
  ['373', 'PA', 'Panama (Republic of)'],
  ['374', 'PA', 'Panama (Republic of)'],
  ['375', 'VC', 'Saint Vincent and the Grenadines'],
  ['376', 'VC', 'Saint Vincent and the Grenadines'],
  ['377', 'VC', 'Saint Vincent and the Grenadines'],
  ['378', 'VG', 'United Kingdom of Great Britain and Northern Ireland - British Virgin Islands'],
  ['379', 'VI', 'United States of America - United States Virgin Islands'],
  ['401', 'AF', 'Afghanistan'],
  ['403', 'SA', 'Saudi Arabia (Kingdom of)'],
  ['405', 'BD', "Bangladesh (People's Republic of)"],
  ['408', 'BH', 'Bahrain (Kingdom of)'],
  ['410', 'BT', 'Bhutan (Kingdom of)'],
  ['412', 'CN', "China (People's Republic of)"],
  ['413', 'CN', "China (People's Republic of)"],
  ['414', 'CN', "China (People's Republic of)"],
  ['416', 'TW', "China (People's Republic of) - Taiwan (Province of China)"],
  ['417', 'LK', 'Sri Lanka (Democratic Socialist Republic of)'],
  ['419', 'IN', 'India (Republic of)'],
  ['422', 'IR', 'Iran (Islamic Republic of)'],
  ['423', 'AZ', 'Azerbaijan (Republic of)'],
  ['425', 'IQ', 'Iraq (Republic of)'],
  ['428', 'IL', 'Israel (State of)'],
  ['431', 'JP', 'Japan'],
  ['432', 'JP', 'Japan'],
  ['434', 'TM', 'Turkmenistan'],
  ['436', 'KZ', 'Kazakhstan (Republic of)'],
  ['437', 'UZ', 'Uzbekistan (Republic of)'],
  ['438', 'JO', 'Jordan (Hashemite Kingdom of)'],
  ['440', 'KR', 'Korea (Republic of)'],
  ['441', 'KR', 'Korea (Republic of)'],
  ['443', 'PS', 'State of Palestine (In accordance with Resolution 99 Rev. Dubai, 2018)'],
  ['445', 'KP', "Democratic People's Republic of Korea"],
  ['447', 'KW', 'Kuwait (State of)'],
  ['450', 'LB', 'Lebanon'],
  ['451', 'KG', 'Kyrgyz Republic'],
  ['453', 'MO', "China (People's Republic of) - Macao (Special Administrative Region of China)"],
  ['455', 'MV', 'Maldives (Republic of)'],
  ['457', 'MN', 'Mongolia'],
  ['459', 'NP', 'Nepal (Federal Democratic Republic of)'],
  ['461', 'OM', 'Oman (Sultanate of)'],
  ['463', 'PK', 'Pakistan (Islamic Republic of)'],
  ['466', 'QA', 'Qatar (State of)'],
  ['468', 'SY', 'Syrian Arab Republic'],
  ['470', 'AE', 'United Arab Emirates'],
  ['471', 'AE', 'United Arab Emirates'],
  ['472', 'TJ', 'Tajikistan (Republic of)'],
  ['473', 'YE', 'Yemen (Republic of)'],
  ['475', 'YE', 'Yemen (Republic of)'],
  ['477', 'HK', "China (People's Republic of) - Hong Kong (Special Administrative Region of China)"],
  ['478', 'BA', 'Bosnia and Herzegovina'],
  ['501', 'TF', 'France - Adelie Land'],
  ['503', 'AU', 'Australia'],
  ['506', 'MM', 'Myanmar (Union of)'],
  ['508', 'BN', 'Brunei Darussalam'],
  ['510', 'FM', 'Micronesia (Federated States of)'],
  ['511', 'PW', 'Palau (Republic of)'],
  ['512', 'NZ', 'New Zealand'],
  ['514', 'KH', 'Cambodia (Kingdom of)'],
  ['515', 'KH', 'Cambodia (Kingdom of)'],
  ['516', 'CX', 'Australia - Christmas Island (Indian Ocean)'],
  ['518', 'CK', 'New Zealand - Cook Islands'],
  ['520', 'FJ', 'Fiji (Republic of)'],
  ['523', 'CC', 'Australia - Cocos (Keeling) Islands'],
  ['525', 'ID', 'Indonesia (Republic of)'],
  ['529', 'KI', 'Kiribati (Republic of)'],
  ['531', 'LA', "Lao People's Democratic Republic"],
  ['533', 'MY', 'Malaysia'],
  ['536', 'MP', 'United States of America - Northern Mariana Islands (Commonwealth of the)'],
  ['538', 'MH', 'Marshall Islands (Republic of the)'],
  ['540', 'NC', 'France - New Caledonia'],
  ['542', 'NU', 'New Zealand - Niue'],
  ['544', 'NR', 'Nauru (Republic of)'],
  ['546', 'PF', 'France - French Polynesia'],
  ['548', 'PH', 'Philippines (Republic of the)'],
  ['550', 'TL', 'Timor-Leste (Democratic Republic of)'],
  ['553', 'PG', 'Papua New Guinea'],
  ['555', 'PN', 'United Kingdom of Great Britain and Northern Ireland - Pitcairn Island'],
  ['557', 'SB', 'Solomon Islands'],
  ['559', 'AS', 'United States of America - American Samoa'],
  ['561', 'WS', 'Samoa (Independent State of)'],
  ['563', 'SG', 'Singapore (Republic of)'],
  ['564', 'SG', 'Singapore (Republic of)'],
  ['565', 'SG', 'Singapore (Republic of)'],
  ['566', 'SG', 'Singapore (Republic of)'],
  ['567', 'TH', 'Thailand'],
  ['570', 'TO', 'Tonga (Kingdom of)'],
  ['572', 'TV', 'Tuvalu'],
  ['574', 'VN', 'Viet Nam (Socialist Republic of)'],
  ['576', 'VU', 'Vanuatu (Republic of)'],
  ['577', 'VU', 'Vanuatu (Republic of)'],
  ['578', 'WF', 'France - Wallis and Futuna Islands'],
  ['601', 'ZA', 'South Africa (Republic of)'],
  ['603', 'AO', 'Angola (Republic of)'],
  ['605', 'DZ', "Algeria (People's Democratic Republic of)"],
  ['607', 'TF', 'France - Saint Paul and Amsterdam Islands'],
  ['608', 'SH', 'United Kingdom of Great Britain and Northern Ireland - Ascension Island'],
  ['609', 'BI', 'Burundi (Republic of)'],
  ['610', 'BJ', 'Benin (Republic of)'],
  ['611', 'BW', 'Botswana (Republic of)'],
  ['612', 'CF', 'Central African Republic'],
  ['613', 'CM', 'Cameroon (Republic of)'],
  ['615', 'CG', 'Congo (Republic of the)'],
  ['616', 'KM', 'Comoros (Union of the)'],
  ['617', 'CV', 'Cabo Verde (Republic of)'],
  ['618', 'TF', 'France - Crozet Archipelago'],
  ['619', 'CI', "Côte d'Ivoire (Republic of)"],
  ['620', 'KM', 'Comoros (Union of the)'],
  ['621', 'DJ', 'Djibouti (Republic of)'],
  ['622', 'EG', 'Egypt (Arab Republic of)'],
  ['624', 'ET', 'Ethiopia (Federal Democratic Republic of)'],
  ['625', 'ER', 'Eritrea'],
  ['626', 'GA', 'Gabonese Republic'],
  ['627', 'GH', 'Ghana'],
  ['629', 'GM', 'Gambia (Republic of the)'],
  ['630', 'GW', 'Guinea-Bissau (Republic of)'],
  ['631', 'GQ', 'Equatorial Guinea (Republic of)'],
  ['632', 'GN', 'Guinea (Republic of)'],
  ['633', 'BF', 'Burkina Faso'],
  ['634', 'KE', 'Kenya (Republic of)'],
  ['635', 'TF', 'France - Kerguelen Islands'],
  ['636', 'LR', 'Liberia (Republic of)'],
  ['637', 'LR', 'Liberia (Republic of)'],
  ['638', 'SS', 'South Sudan (Republic of)'],
  ['642', 'LY', 'Libya (State of)'],
  ['644', 'LS', 'Lesotho (Kingdom of)'],
  ['645', 'MU', 'Mauritius (Republic of)'],
  ['647', 'MG', 'Madagascar (Republic of)'],
  ['649', 'ML', 'Mali (Republic of)'],
  ['650', 'MZ', 'Mozambique (Republic of)'],
  ['654', 'MR', 'Mauritania (Islamic Republic of)'],
  ['655', 'MW', 'Malawi'],
  ['656', 'NE', 'Niger (Republic of the)'],
  ['657', 'NG', 'Nigeria (Federal Republic of)'],
  ['659', 'NA', 'Namibia (Republic of)'],
  ['660', 'RE', 'France - Reunion (French Department of)'],
  ['661', 'RW', 'Rwanda (Republic of)'],
  ['662', 'SD', 'Sudan (Republic of the)'],
  ['663', 'SN', 'Senegal (Republic of)'],
  ['664', 'SC', 'Seychelles (Republic of)'],
  ['665', 'SH', 'United Kingdom of Great Britain and Northern Ireland - Saint Helena'],
  ['666', 'SO', 'Somalia (Federal Republic of)'],
  ['667', 'SL', 'Sierra Leone'],
  ['668', 'ST', 'Sao Tome and Principe (Democratic Republic of)'],
  ['669', 'SZ', 'Eswatini (Kingdom of)'],
  ['670', 'TD', 'Chad (Republic of)'],
  ['671', 'TG', 'Togolese Republic'],
  ['672', 'TN', 'Tunisia'],
  ['674', 'TZ', 'Tanzania (United Republic of)'],
  ['675', 'UG', 'Uganda (Republic of)'],
  ['676', 'CD', 'Democratic Republic of the Congo'],
  ['677', 'TZ', 'Tanzania (United Republic of)'],
  ['678', 'ZM', 'Zambia (Republic of)'],
  ['679', 'ZW', 'Zimbabwe (Republic of)'],
  ['701', 'AR', 'Argentine Republic'],
  ['710', 'BR', 'Brazil (Federative Republic of)'],
  ['720', 'BO', 'Bolivia (Plurinational State of)'],
  ['725', 'CL', 'Chile'],
  ['730', 'CO', 'Colombia (Republic of)'],
  ['735', 'EC', 'Ecuador'],
  ['740', 'FK', 'United Kingdom of Great Britain and Northern Ireland - Falkland Islands (Malvinas)'],
  ['745', 'GF', 'France - Guiana (French Department of)'],
  ['750', 'GY', 'Guyana'],
  ['755', 'PY', 'Paraguay (Republic of)'],
  ['760', 'PE', 'Peru'],
  ['765', 'SR', 'Suriname (Republic of)'],
  ['770', 'UY', 'Uruguay (Eastern Republic of)'],
  ['775', 'VE', 'Venezuela (Bolivarian Republic of)'],
];

/** Every allocated MID, in the ITU table's order (306 appears three times, once per territory). */
export const MID_ALLOCATIONS: readonly MidAllocation[] = ROWS.map(([mid, country_code, country]) => ({ mid, country_code, country }));

/** What a MID shared by several administrations answers: their common flag state. */
const SHARED_MIDS: Readonly<Record<string, MidAllocation>> = {
  '306': {
    mid: '306',
    country_code: 'NL',
    country: 'Netherlands (Kingdom of the) - Bonaire, Sint Eustatius and Saba; Curaçao; Sint Maarten (Dutch part)',
  },
};

const BY_MID: ReadonlyMap<string, MidAllocation> = new Map([
  ...MID_ALLOCATIONS.map((row) => [row.mid, row] as const),
  ...Object.entries(SHARED_MIDS),
]);

/** The administration a MID is allocated to, or null when the ITU has not allocated it. */
export function midAllocation(mid: string): MidAllocation | null {
  return BY_MID.get(mid) ?? null;
}

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

/**
 * The flag an MMSI carries: its MID, the ISO 3166-1 alpha-2 code and the ITU's name of the
 * administration. Null for an MMSI that is malformed, whose kind has no MID (AIS-SART, MOB,
 * EPIRB-AIS: their digits 4-5 name the manufacturer), or whose MID the ITU has not allocated.
 */
export function flagOfMmsi(mmsi: string): { mid: string; country_code: string; country: string } | null {
  const offset = MID_OFFSET[mmsiKind(mmsi)];
  if (offset === undefined) return null;
  const allocation = midAllocation(mmsi.slice(offset, offset + 3));
  return allocation ? { ...allocation } : null;
}
