/**
 * What `POST /api/v1/threat-libraries/seed` puts in a tenant: one library per vertical, three
 * definitions each, as data. A library is found again by its `seed_key`, a definition by its
 * `definition_id`: both are fixed here and must never change (a changed id would be seeded again
 * beside the old one). Content may be improved; a tenant that has a definition keeps its own copy.
 *
 * Payload fields the definitions read, by event type (what a sensor or integration should send):
 * `vessel.loitering` `speed_knots` (speed over ground) and `duration_minutes` (time held in the
 * area); `ais.gap` `gap_minutes` (minutes between the last position before and the first after).
 */
import type { threatDefinitionInput } from '../../schemas/threat-libraries.js';
import type { InputOf } from '../../schemas/json-schema.js';

export type SeedDefinition = InputOf<typeof threatDefinitionInput> & { definition_id: string; description: string };

export interface SeedLibrary {
  /** Stable: how a later seed finds the library, whatever the tenant renamed it to. */
  seed_key: string;
  vertical: 'maritime' | 'security' | 'infrastructure' | 'defense';
  name: string;
  description: string;
  definitions: readonly SeedDefinition[];
}

export const SEED_LIBRARIES: readonly SeedLibrary[] = [
  {
    seed_key: 'gatehouse.maritime',
    vertical: 'maritime',
    name: 'Maritime: subsea cables and port approaches',
    description:
      'Vessel behaviour that precedes damage to subsea cables and pipelines, and approaches to a port facility from the water. Tuned for AIS feeds, coastal radar and vessel-tracking integrations.',
    definitions: [
      {
        definition_id: 'maritime.cable-loitering',
        name: 'Vessel loitering over a subsea cable',
        description:
          'A vessel holding at 2 knots or less for 30 minutes or more inside a cable or pipeline protection zone: the signature of anchoring, or of dragging an anchor or bottom gear, over the cable. The International Cable Protection Committee (ICPC) finds fishing gear and anchors behind most cable faults, and its recommendations ask cable owners to watch their corridors and warn vessels early. Identify the vessel from AIS, call it on VHF to move off the cable route, and alert the cable owner and the coastguard.',
        severity: 'high',
        weight: 0.6,
        match: {
          event_types: ['vessel.loitering'],
          zone_types: ['waterside', 'critical'],
          payload: [
            { field: 'speed_knots', op: 'lte', value: 2 },
            { field: 'duration_minutes', op: 'gte', value: 30 },
          ],
        },
      },
      {
        definition_id: 'maritime.ais-gap-restricted',
        name: 'AIS gap in a restricted area',
        description:
          "A vessel stopped transmitting AIS for an hour or more while inside a restricted zone. SOLAS chapter V, regulation 19 requires ships to keep AIS in operation at all times unless the master judges it a risk to the ship's safety; going dark inside a restricted area is the pattern seen before ship-to-ship transfers, sanctions evasion and interference with seabed infrastructure. Compare the last position before the gap with the first after, check the vessel's history, and task a patrol or radar to the area.",
        severity: 'high',
        weight: 0.5,
        match: {
          event_types: ['ais.gap'],
          zone_types: ['restricted'],
          payload: [{ field: 'gap_minutes', op: 'gte', value: 60 }],
        },
      },
      {
        definition_id: 'maritime.night-waterside-approach',
        name: 'Night-time approach from the water',
        description:
          'A vessel holding close to the quay, or movement or an intrusion detected at the waterside, between 22:00 and 05:00 when no port operations are scheduled. The ISPS Code (part B, section 16) asks port facilities to monitor their land and water approaches at all times, including at night; a small craft alongside after hours is the usual approach of stowaways, theft from moored ships and swimmer or diver attacks. Check the vessel against the berth plan and send the waterside patrol.',
        severity: 'medium',
        weight: 0.4,
        match: {
          event_types: ['vessel.loitering', 'motion.detected', 'intrusion.detected'],
          zone_types: ['waterside'],
          hours: { start: '22:00', end: '05:00' },
        },
      },
    ],
  },
  {
    seed_key: 'gatehouse.security',
    vertical: 'security',
    name: 'Site security: access control and intrusion',
    description:
      'Misuse of access control and intrusions into buildings: tailgating, credential probing, and forced entry when the site should be empty.',
    definitions: [
      {
        definition_id: 'security.tailgating-entrance',
        name: 'Tailgating at an access point',
        description:
          'More people passed a controlled door or turnstile than presented a credential: tailgating (or piggybacking, when the badge holder lets them in). It is the commonest way past access control and defeats every audit trail behind the door. Review the door camera, identify the person who followed, and remind staff not to hold doors; repeated at one door, consider a speed gate or mantrap.',
        severity: 'medium',
        weight: 0.4,
        match: {
          event_types: ['tailgating.detected'],
          zone_types: ['entrance', 'restricted'],
        },
      },
      {
        definition_id: 'security.repeated-access-denials',
        name: 'Repeated access denials',
        description:
          'Five or more denied badge or PIN attempts in the same zone within an hour. One denial is routine (an expired badge, a wrong door); a run of them is someone trying cards, a cloned or revoked credential being retried, or a keypad being guessed. Check which credentials were refused, suspend a credential that keeps failing, and send a guard to the reader.',
        severity: 'medium',
        weight: 0.45,
        match: {
          event_types: ['access.denied'],
          repeat: { count: 5 },
        },
      },
      {
        definition_id: 'security.forced-entry-after-hours',
        name: 'Forced entry after hours',
        description:
          'A door forced, glass broken or an intrusion detector tripped between 20:00 and 06:00, when the site should be empty. Confirm it by video or by a second detector before police attendance (sequential confirmation, as BS 8243 describes for confirmed intruder alarms), but dispatch a keyholder or patrol at once.',
        severity: 'high',
        weight: 0.6,
        match: {
          event_types: ['door.forced', 'glass.break', 'intrusion.detected'],
          hours: { start: '20:00', end: '06:00' },
        },
      },
    ],
  },
  {
    seed_key: 'gatehouse.infrastructure',
    vertical: 'infrastructure',
    name: 'Critical infrastructure: buried assets and installations',
    description:
      'Threats to buried cables and pipelines and to critical installations: third-party digging, intrusion into critical areas, and the blinding of sensors before an attack.',
    definitions: [
      {
        definition_id: 'infrastructure.fibre-digging',
        name: 'Digging signature on a fibre sensor',
        description:
          'A distributed acoustic sensing (DAS) or fibre-optic intrusion system classified a disturbance along the route as digging or excavation. Third-party excavation is the leading cause of damage to buried cables and pipelines, which is why "call before you dig" schemes exist. Send someone to the reported position (chainage), check it against permitted works notices, and stop unnotified work until the asset is located.',
        severity: 'high',
        weight: 0.55,
        match: {
          event_types: ['fibre.disturbance'],
          keywords: ['digging', 'excavation', 'excavator', 'trenching', 'ground works'],
        },
      },
      {
        definition_id: 'infrastructure.critical-area-intrusion',
        name: 'Intrusion into a critical area',
        description:
          'A perimeter breach or intrusion in a critical zone of security level 4 or 5: a substation, control room, pumping station or data hall. The EU Critical Entities Resilience Directive (2022/2557) requires critical entities to detect such incidents and respond to them without delay. Dispatch the response team, lock down access to the area, and notify the operator of the installation.',
        severity: 'critical',
        weight: 0.7,
        match: {
          event_types: ['perimeter.breach', 'intrusion.detected', 'door.forced'],
          zone_types: ['critical'],
          min_security_level: 4,
        },
      },
      {
        definition_id: 'infrastructure.sensor-tamper',
        name: 'Sensor tampering at a protected area',
        description:
          'A sensor at the perimeter or in a critical or restricted zone reported tampering: its case opened, its cable cut, its view masked or moved. Blinding detection is a common first step of a planned intrusion, which is why EN 50131 requires tamper detection on intruder alarm equipment. Treat the area as unwatched until a technician has checked the sensor, and cover it by patrol or camera meanwhile.',
        severity: 'high',
        weight: 0.5,
        match: {
          event_types: ['sensor.tamper'],
          zone_types: ['perimeter', 'critical', 'restricted'],
        },
      },
    ],
  },
  {
    seed_key: 'gatehouse.defense',
    vertical: 'defense',
    name: 'Defence: perimeter, airspace and hostile reconnaissance',
    description:
      'Threats to defended sites: drones over the perimeter, probing of the perimeter alarms, and hostile reconnaissance from vehicles.',
    definitions: [
      {
        definition_id: 'defense.drone-over-perimeter',
        name: 'Drone over the perimeter',
        description:
          'An unmanned aircraft detected over the perimeter or a critical or restricted area: possible reconnaissance, delivery of contraband, or an attack. Most states prohibit flights over military and critical sites (in the EU through UAS geographical zones under Regulation (EU) 2019/947). Locate the pilot if the detector reports one, record the flight track, and report to the police or the military authority.',
        severity: 'high',
        weight: 0.6,
        match: {
          event_types: ['drone.detected'],
          zone_types: ['perimeter', 'critical', 'restricted'],
        },
      },
      {
        definition_id: 'defense.perimeter-probing',
        name: 'Probing of the perimeter',
        description:
          'Three or more perimeter alarms (breach, fence disturbance or motion) in the same perimeter zone within an hour. Adversaries trigger sensors on purpose to time the response and to wear the guard force down until alarms are dismissed as false. Do not stand down after the first false alarm: vary the response, and look for a pattern in where and when the alarms come.',
        severity: 'high',
        weight: 0.5,
        match: {
          event_types: ['perimeter.breach', 'fibre.disturbance', 'motion.detected'],
          zone_types: ['perimeter'],
          repeat: { count: 3 },
        },
      },
      {
        definition_id: 'defense.hostile-reconnaissance',
        name: 'Vehicles lingering near the gate or perimeter',
        description:
          "Vehicles detected three or more times within an hour in the same perimeter, entrance or parking zone. Repeated passes and parked observation are signs of hostile reconnaissance, the planning phase of most attacks on a site (the UK National Protective Security Authority's guidance on hostile reconnaissance). Note the plates, compare them with known vehicles, and report suspicious ones to the police.",
        severity: 'medium',
        weight: 0.35,
        match: {
          event_types: ['vehicle.detected'],
          zone_types: ['perimeter', 'entrance', 'parking'],
          repeat: { count: 3 },
        },
      },
    ],
  },
];
