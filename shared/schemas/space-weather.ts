/** Space weather (docs/connectors.md, "Space weather"): Kp, solar wind, and the induced-current risk to long conductors. */
import type { JsonSchema } from './json-schema.js';
import { timestamp } from './common.js';
import { tenantScope } from './users.js';

export const MAX_CONDUCTORS = 200;

export const spaceWeatherQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: { type: 'string', maxLength: 64, description: tenantScope.description },
      conductors: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_CONDUCTORS,
        default: 50,
        description: 'How many of your lines to assess, the most exposed first (0: none).',
      },
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const GIC_RISKS = ['none', 'low', 'moderate', 'high', 'severe', 'extreme'] as const;
const nullableNumber = { type: ['number', 'null'] } as const;

const kpReading = /* @__PURE__ */ (() =>
  ({
    type: ['object', 'null'],
    properties: {
      time: { ...timestamp, description: 'Start of the reading (UTC).' },
      kp: { type: 'number', minimum: 0, maximum: 9 },
      cadence: {
        type: 'string',
        enum: ['3h', '1m'],
        description: '`3h`: the planetary index; `1m`: SWPC’s one-minute estimate of it.',
      },
    },
    required: ['time', 'kp', 'cadence'],
    additionalProperties: false,
  }) as const)();

export const spaceWeatherAnswer = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      kp: {
        type: 'object',
        properties: {
          current: {
            ...kpReading,
            description:
              'The newest reading: the one-minute estimate when it is newer than the last 3-hourly reading. Null when no Kp is kept.',
          },
          max_24h: { ...kpReading, description: 'The greatest 3-hourly Kp of the last day of readings.' },
          readings: {
            type: 'array',
            items: { ...kpReading, type: 'object' },
            description: 'The 3-hourly readings of the last day, newest first.',
          },
          stale: {
            type: 'boolean',
            description: 'No 3-hourly reading of the last 6 hours is kept: check the `swpc-kp` connector.',
          },
        },
        required: ['current', 'max_24h', 'readings', 'stale'],
        additionalProperties: false,
      },
      gic: {
        type: 'object',
        description:
          'The geomagnetically induced current risk for long conductors (power lines, pipelines, cable power feeds) at the current Kp: one level per NOAA G-scale step.',
        properties: {
          kp: { ...nullableNumber, description: 'The Kp it is based on (`kp.current`).' },
          g_scale: {
            type: ['string', 'null'],
            enum: ['G1', 'G2', 'G3', 'G4', 'G5', null],
            description: 'The NOAA geomagnetic storm level; null below storm level.',
          },
          risk: {
            type: 'string',
            enum: [...GIC_RISKS, 'unknown'],
            description: '`unknown` when no Kp reading is kept (then `kp` is null); `none` is below storm level.',
          },
          effects: {
            type: 'string',
            description: 'What the NOAA scale says of power systems (and pipelines) at this level.',
          },
          source: { type: 'string' },
          auroral_edge_magnetic_latitude: {
            ...nullableNumber,
            description:
              'The auroral oval’s equatorward edge at this Kp, degrees of geomagnetic latitude (66 - 2 x Kp).',
          },
        },
        required: ['kp', 'g_scale', 'risk', 'effects', 'source', 'auroral_edge_magnetic_latitude'],
        additionalProperties: false,
      },
      solar_wind: {
        type: 'object',
        description:
          'The solar wind at L1, 15 to 60 minutes upstream of the Earth: a fast, dense wind with a southward Bz precedes storms.',
        properties: {
          plasma: {
            type: ['object', 'null'],
            properties: {
              time: timestamp,
              speed: { ...nullableNumber, description: 'km/s' },
              density: { ...nullableNumber, description: 'protons/cm³' },
              temperature: { ...nullableNumber, description: 'K' },
            },
            required: ['time', 'speed', 'density', 'temperature'],
            additionalProperties: false,
          },
          mag: {
            type: ['object', 'null'],
            properties: {
              time: timestamp,
              bz_gsm: { ...nullableNumber, description: 'nT; negative is southward' },
              bt: { ...nullableNumber, description: 'nT' },
            },
            required: ['time', 'bz_gsm', 'bt'],
            additionalProperties: false,
          },
          bz_min_1h: {
            ...nullableNumber,
            description: 'The most southward Bz of the last 60 one-minute readings (nT).',
          },
          southward_minutes_1h: {
            type: 'integer',
            minimum: 0,
            description: 'Of those readings, how many had Bz south.',
          },
        },
        required: ['plasma', 'mag', 'bz_min_1h', 'southward_minutes_1h'],
        additionalProperties: false,
      },
      conductors: {
        type: 'array',
        description:
          'Your infrastructure lines with their own exposure, the most exposed first (at most `conductors`); empty when no Kp is kept.',
        items: {
          type: 'object',
          properties: {
            line_id: { type: 'string' },
            environment_id: { type: 'string' },
            name: { type: ['string', 'null'] },
            kind: { type: 'string' },
            length_km: { type: 'number' },
            magnetic_latitude: {
              type: 'number',
              description: 'The most poleward geomagnetic latitude the line reaches (absolute, centred dipole).',
            },
            band: {
              type: 'string',
              enum: ['auroral', 'mid', 'low'],
              description:
                '`auroral`: it reaches poleward of the auroral edge (risk one level up); `low`: wholly below 40° (one level down); `mid`: neither.',
            },
            risk: { type: 'string', enum: GIC_RISKS },
          },
          required: ['line_id', 'environment_id', 'name', 'kind', 'length_km', 'magnetic_latitude', 'band', 'risk'],
          additionalProperties: false,
        },
      },
      conductors_total: {
        type: 'integer',
        minimum: 0,
        description: 'How many lines were assessed before `conductors` cut the list.',
      },
      sources: {
        type: 'object',
        description: 'The sources read: those of your connectors of each feed, or the public one when you have none.',
        properties: {
          kp: { type: 'array', items: { type: 'string' } },
          plasma: { type: 'array', items: { type: 'string' } },
          mag: { type: 'array', items: { type: 'string' } },
        },
        required: ['kp', 'plasma', 'mag'],
        additionalProperties: false,
      },
    },
    required: ['kp', 'gic', 'solar_wind', 'conductors', 'conductors_total', 'sources'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();
