/**
 * Infrastructure files end to end: multipart uploads and the presigned flow over real HTTP,
 * with the objects checked in the local S3 and the items through the API and the table.
 */
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { BUCKET, environmentPrefix, s3 } from '../../shared/adapters/s3.js';
import { db, TABLE } from '../../shared/db/client.js';
import { getEnvironment } from '../../shared/db/environments.js';
import { tenantPk } from '../../shared/db/keys.js';
import {
  MAX_DIRECT_UPLOAD_BYTES,
  MAX_PRESIGNED_UPLOAD_BYTES,
  MAX_STREAM_FEATURES,
  MAX_SYNC_GEOJSON_BYTES,
  MAX_SYNC_KML_BYTES,
} from '../../shared/schemas/infrastructure.js';
import {
  asAdmin,
  baseUrl,
  call,
  createUser,
  randomClientIp,
  registerTenant,
  type RegisteredTenant,
} from '../support/api.js';
import {
  ASSETS_GEOJSON,
  ASSETS_SUMMARY,
  deepPropertiesGeojsonBytes,
  geojsonBytes,
  kmlBytes,
  kmzBytes,
  largeGeojsonBytes,
  largeQuakesGeojsonBytes,
  PORT_KML_SUMMARY,
  pointsKml,
  pointsKmlBbox,
  repeatShapefileRecords,
  shapefileZipBytes,
  usgsQuakes,
} from '../support/geo-files.js';
import { until } from '../support/threat-site.js';
import { auditEntriesOf } from '../support/seed.js';

const UNKNOWN_ID = '0196f7a1-0000-7000-8000-000000000000';

interface Site {
  org: RegisteredTenant;
  environmentId: string;
  base: string;
}

async function newSite(label = 'Port'): Promise<Site> {
  const org = await registerTenant(label);
  const res = await call('POST', '/api/v1/environments', {
    token: org.token,
    body: { name: 'North Harbour', type: 'port' },
  });
  expect(res.status).toBe(201);
  const environmentId = res.body.environment_id as string;
  return { org, environmentId, base: `/api/v1/environments/${environmentId}/infrastructure` };
}

/** POSTs a multipart form with the file in `field`, as a browser would. */
async function upload(
  token: string,
  environmentId: string,
  filename: string,
  data: Uint8Array,
  options: { field?: string; query?: string } = {},
) {
  const form = new FormData();
  form.append(options.field ?? 'file', new Blob([data]), filename);
  const url = new URL(`/api/v1/environments/${environmentId}/infrastructure/upload${options.query ?? ''}`, baseUrl());
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': randomClientIp() },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Every object key under a prefix of the bucket. */
async function objectsUnder(prefix: string): Promise<string[]> {
  const out = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return (out.Contents ?? []).map((o) => o.Key ?? '').sort();
}

/** File and pending-upload items in the tenant's partition (a new tenant's partition is small). */
async function fileItemsOf(tenantId: string): Promise<string[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': tenantPk(tenantId) },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((i) => String(i.SK)).filter((sk) => sk.startsWith('FILE#') || sk.startsWith('UPLOAD#'));
}

/** Nothing of any file in S3, the list, the environment's count or the table. */
async function expectNothingStored(site: Site) {
  expect(await objectsUnder(environmentPrefix(site.org.tenantId, site.environmentId))).toEqual([]);
  const list = await call('GET', site.base, { token: site.org.token });
  expect(list.body).toEqual({ items: [], total: 0, limit: 50, offset: 0, next_offset: null });
  expect((await getEnvironment(site.org.tenantId, site.environmentId))?.counts.files).toBe(0);
  expect(await fileItemsOf(site.org.tenantId)).toEqual([]);
}

/** upload-url, then a PUT of the bytes to the URL with the headers it names. */
async function presignedUpload(site: Site, filename: string, data: Uint8Array) {
  const ticket = await call('POST', `${site.base}/upload-url`, {
    token: site.org.token,
    body: { filename, size_bytes: data.length },
  });
  expect(ticket.status).toBe(201);
  const put = await fetch(ticket.body.upload_url, {
    method: ticket.body.method,
    headers: ticket.body.headers,
    body: data,
  });
  expect(put.status).toBe(200);
  return ticket.body as {
    file_id: string;
    upload_url: string;
    headers: Record<string, string>;
    expires_at: string;
    max_bytes: number;
  };
}

const FORMATS = [
  {
    name: 'KML',
    filename: 'port.kml',
    format: 'kml',
    make: async () => kmlBytes(),
    summary: PORT_KML_SUMMARY,
    extension: 'kml',
  },
  {
    name: 'KMZ',
    filename: 'port.kmz',
    format: 'kmz',
    make: () => kmzBytes(),
    summary: PORT_KML_SUMMARY,
    extension: 'kmz',
  },
  {
    name: 'GeoJSON',
    filename: 'assets.geojson',
    format: 'geojson',
    make: async () => geojsonBytes(),
    summary: ASSETS_SUMMARY,
    extension: 'geojson',
  },
  {
    name: 'zipped shapefile',
    filename: 'assets.zip',
    format: 'shapefile',
    make: () => shapefileZipBytes(),
    summary: ASSETS_SUMMARY,
    extension: 'zip',
  },
] as const;

/** Properties by feature name, as the features route gives them. */
const propertiesByName = (collection: { features: { properties: Record<string, unknown> }[] }) =>
  Object.fromEntries(collection.features.map((f) => [f.properties.name, f.properties]));

const BAD_FILES = [
  {
    case: 'a corrupt file',
    filename: 'port.kmz',
    make: async () => (await kmzBytes()).subarray(0, 60),
    type: 'unreadable_file',
    msg: /not readable as a KMZ archive/,
  },
  {
    case: 'a .kml holding JSON',
    filename: 'port.kml',
    make: async () => geojsonBytes(),
    type: 'format_mismatch',
    msg: /promises a KML document, but the content is GeoJSON/,
  },
  {
    case: 'a file with no geometries',
    filename: 'empty.geojson',
    make: async () =>
      geojsonBytes({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', properties: { name: 'x' }, geometry: null }],
      }),
    type: 'no_geometries',
    msg: /holds no geometries/,
  },
  {
    case: 'GeoJSON whose properties nest 200,000 levels',
    filename: 'deep.geojson',
    make: async () => deepPropertiesGeojsonBytes(200_000),
    type: 'unreadable_file',
    msg: /^The file is not readable as GeoJSON: the JSON is nested deeper than 32 levels$/,
  },
] as const;

describe('infrastructure.upload', () => {
  it.each(FORMATS)(
    'a $name uploads, reports its geometries and serves them with their properties',
    async ({ filename, format, make, summary, extension }) => {
      const site = await newSite();
      const data = await make();
      const res = await upload(site.org.token, site.environmentId, filename, data);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        file_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        tenant_id: site.org.tenantId,
        environment_id: site.environmentId,
        filename,
        format,
        size_bytes: data.length,
        ...summary,
        created_by: site.org.userId,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      const prefix = `${environmentPrefix(site.org.tenantId, site.environmentId)}files/${res.body.file_id}/`;
      // The features, their lines' index (every sample holds a line), and the original.
      expect(await objectsUnder(prefix)).toEqual([
        `${prefix}features.geojson`,
        `${prefix}lines.json`,
        `${prefix}original.${extension}`,
      ]);

      const features = await call('GET', `${site.base}/${res.body.file_id}/features`, { token: site.org.token });
      expect(features.status).toBe(200);
      expect(features.body.type).toBe('FeatureCollection');
      expect(features.body.features).toHaveLength(summary.feature_count);
      if (format === 'kml' || format === 'kmz') {
        expect(propertiesByName(features.body)).toMatchObject({
          'Quay fence': { owner: 'Port Authority', height_m: '3.5' },
          'Container yard': { security_level: 'restricted' },
        });
      } else {
        expect(propertiesByName(features.body)).toMatchObject(propertiesByName(ASSETS_GEOJSON as never));
      }

      const audit = await auditEntriesOf(site.org.tenantId);
      expect(audit.at(-1)).toMatchObject({
        action: 'infrastructure_file.created',
        resource_type: 'infrastructure_file',
        resource_id: res.body.file_id,
        user_id: site.org.userId,
        changes: { filename, format, feature_count: summary.feature_count, via: 'upload' },
      });
    },
  );

  it.each(BAD_FILES)(
    '$case is 422 at body.file and leaves nothing in S3 or DynamoDB',
    async ({ filename, make, type, msg }) => {
      const site = await newSite();
      const res = await upload(site.org.token, site.environmentId, filename, await make());
      expect(res.status).toBe(422);
      expect(res.body.detail).toHaveLength(1);
      expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'file'], type, msg: expect.stringMatching(msg) });
      await expectNothingStored(site);
    },
  );

  it('a name we do not take is 422 with the names we do', async () => {
    const site = await newSite();
    const res = await upload(site.org.token, site.environmentId, 'port.gpx', kmlBytes());
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({
      loc: ['body', 'file'],
      type: 'file_type',
      msg: expect.stringContaining('.kml, .kmz, .geojson, .json, .zip'),
    });
  });

  it('a file over 4 MB is 413, whether just over or far over, and nothing is stored', async () => {
    const site = await newSite();
    const justOver = largeGeojsonBytes(MAX_DIRECT_UPLOAD_BYTES + 2048);
    expect(justOver.length).toBeGreaterThan(MAX_DIRECT_UPLOAD_BYTES);
    const res = await upload(site.org.token, site.environmentId, 'cables.geojson', justOver);
    expect(res.status).toBe(413);
    expect(res.body.detail).toMatch(/^The (upload|file) is larger than 4194304 bytes; upload it through POST /);
    const farOver = await upload(
      site.org.token,
      site.environmentId,
      'cables.geojson',
      largeGeojsonBytes(6 * 1024 * 1024),
    );
    expect(farOver.status).toBe(413);
    await expectNothingStored(site);
  });

  it('a body that is not multipart is 415; a form without the file field is 422', async () => {
    const site = await newSite();
    const json = await call('POST', `${site.base}/upload`, { token: site.org.token, body: ASSETS_GEOJSON });
    expect(json.status).toBe(415);
    expect(json.body.detail).toMatch(/multipart\/form-data/);
    const wrongField = await upload(site.org.token, site.environmentId, 'assets.geojson', geojsonBytes(), {
      field: 'upload',
    });
    expect(wrongField.status).toBe(422);
    expect(wrongField.body.detail[0]).toMatchObject({ loc: ['body', 'file'], type: 'missing' });
    await expectNothingStored(site);
  });

  it("another tenant's environment is 404 even with a good file; a VIEWER is 403; a SUPER_ADMIN may name the tenant", async () => {
    const site = await newSite();
    const other = await registerTenant('Rival');
    const cross = await upload(other.token, site.environmentId, 'assets.geojson', geojsonBytes());
    expect(cross.status).toBe(404);
    expect(cross.body).toEqual({ detail: 'Environment not found' });
    const crossNamed = await upload(other.token, site.environmentId, 'assets.geojson', geojsonBytes(), {
      query: `?tenant_id=${site.org.tenantId}`,
    });
    expect(crossNamed.status).toBe(404);
    const viewer = await createUser(site.org.token, 'VIEWER');
    expect((await upload(viewer.token, site.environmentId, 'assets.geojson', geojsonBytes())).status).toBe(403);
    await expectNothingStored(site);
    const admin = await upload(await asAdmin(), site.environmentId, 'assets.geojson', geojsonBytes(), {
      query: `?tenant_id=${site.org.tenantId}`,
    });
    expect(admin.status).toBe(201);
    expect(admin.body.tenant_id).toBe(site.org.tenantId);
  });
});

describe('infrastructure.uploadUrl', () => {
  it('hands out a PUT URL for original.<ext> under the new file id, valid 15 minutes, and stores nothing visible yet', async () => {
    const site = await newSite();
    const before = Date.now();
    const res = await call('POST', `${site.base}/upload-url`, {
      token: site.org.token,
      body: { filename: 'assets.geojson', size_bytes: 1234 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      file_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      upload_url: expect.any(String),
      method: 'PUT',
      headers: { 'Content-Length': '1234' },
      expires_at: expect.any(String),
      max_bytes: MAX_PRESIGNED_UPLOAD_BYTES,
    });
    const url = new URL(res.body.upload_url);
    expect(decodeURIComponent(url.pathname)).toBe(
      `/${BUCKET}/${environmentPrefix(site.org.tenantId, site.environmentId)}files/${res.body.file_id}/original.geojson`,
    );
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toContain('content-length');
    const expires = Date.parse(res.body.expires_at);
    expect(expires - before).toBeGreaterThanOrEqual(15 * 60 * 1000 - 1000);
    expect(expires - before).toBeLessThanOrEqual(15 * 60 * 1000 + 5000);
    expect((await call('GET', site.base, { token: site.org.token })).body.total).toBe(0);
    expect(await fileItemsOf(site.org.tenantId)).toEqual([`UPLOAD#${res.body.file_id}`]);
  });

  it('validates the name and the size', async () => {
    const site = await newSite();
    const res = await call('POST', `${site.base}/upload-url`, {
      token: site.org.token,
      body: { filename: 'port.gpx', size_bytes: MAX_PRESIGNED_UPLOAD_BYTES + 1 },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { loc: string[] }) => d.loc.join('.')).sort()).toEqual([
      'body.filename',
      'body.size_bytes',
    ]);
  });

  it("another tenant's environment is 404", async () => {
    const site = await newSite();
    const other = await registerTenant('Rival');
    const res = await call('POST', `${site.base}/upload-url`, {
      token: other.token,
      body: { filename: 'a.kml', size_bytes: 10 },
    });
    expect(res.status).toBe(404);
    expect(await fileItemsOf(site.org.tenantId)).toEqual([]);
  });
});

describe('infrastructure.extract', () => {
  it('the presigned flow ends with the same result as a direct upload; extracting twice is 409', async () => {
    const site = await newSite();
    const data = await shapefileZipBytes();
    const ticket = await presignedUpload(site, 'assets.zip', data);
    const res = await call('POST', `${site.base}/${ticket.file_id}/extract`, { token: site.org.token });
    expect(res.status).toBe(201);
    const direct = await upload(site.org.token, site.environmentId, 'assets.zip', data);
    const comparable = ({ file_id: _f, created_at: _c, ...rest }: Record<string, unknown>) => rest;
    expect(comparable(res.body)).toEqual(comparable(direct.body));
    expect(res.body).toMatchObject({
      file_id: ticket.file_id,
      format: 'shapefile',
      size_bytes: data.length,
      ...ASSETS_SUMMARY,
    });

    const prefix = `${environmentPrefix(site.org.tenantId, site.environmentId)}files/${ticket.file_id}/`;
    expect(await objectsUnder(prefix)).toEqual([
      `${prefix}features.geojson`,
      `${prefix}lines.json`,
      `${prefix}original.zip`,
    ]);
    const features = await call('GET', `${site.base}/${ticket.file_id}/features`, { token: site.org.token });
    expect(propertiesByName(features.body)).toMatchObject(propertiesByName(ASSETS_GEOJSON as never));
    const list = await call('GET', site.base, { token: site.org.token });
    expect(list.body.total).toBe(2);
    expect((await auditEntriesOf(site.org.tenantId)).find((e) => e.resource_id === ticket.file_id)).toMatchObject({
      action: 'infrastructure_file.created',
      changes: { via: 'upload_url' },
    });
    // The pending upload is gone with the extraction.
    expect((await fileItemsOf(site.org.tenantId)).filter((sk) => sk.startsWith('UPLOAD#'))).toEqual([]);

    const again = await call('POST', `${site.base}/${ticket.file_id}/extract`, { token: site.org.token });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: 'This file has been extracted already' });
  });

  it('before the PUT it is 409; an unknown id is 404', async () => {
    const site = await newSite();
    const ticket = await call('POST', `${site.base}/upload-url`, {
      token: site.org.token,
      body: { filename: 'port.kml', size_bytes: 100 },
    });
    const early = await call('POST', `${site.base}/${ticket.body.file_id}/extract`, { token: site.org.token });
    expect(early.status).toBe(409);
    expect(early.body.detail).toMatch(/Nothing has been uploaded/);
    const unknown = await call('POST', `${site.base}/${UNKNOWN_ID}/extract`, { token: site.org.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Infrastructure file not found' });
  });

  it.each(BAD_FILES)(
    '$case is 422 at path.file_id; its upload is deleted and the id forgotten',
    async ({ filename, make, type, msg }) => {
      const site = await newSite();
      const ticket = await presignedUpload(site, filename, await make());
      const res = await call('POST', `${site.base}/${ticket.file_id}/extract`, { token: site.org.token });
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['path', 'file_id'], type, msg: expect.stringMatching(msg) });
      await expectNothingStored(site);
      expect((await call('POST', `${site.base}/${ticket.file_id}/extract`, { token: site.org.token })).status).toBe(
        404,
      );
    },
  );

  it('an uploaded object over the limit is 413 and deleted', async () => {
    const site = await newSite();
    const ticket = await call('POST', `${site.base}/upload-url`, {
      token: site.org.token,
      body: { filename: 'big.geojson', size_bytes: 1000 },
    });
    // A client that ignores the signed length (S3 would refuse the PUT; s3rver does not check).
    const key = `${environmentPrefix(site.org.tenantId, site.environmentId)}files/${ticket.body.file_id}/original.geojson`;
    await s3.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: Buffer.alloc(MAX_PRESIGNED_UPLOAD_BYTES + 1, 0x20) }),
    );
    const res = await call('POST', `${site.base}/${ticket.body.file_id}/extract`, { token: site.org.token });
    expect(res.status).toBe(413);
    await expectNothingStored(site);
  });
});

/** Reads the file's status until it is no longer `processing` (the worker runs in the background). */
async function settled(site: Site, fileId: string) {
  const status = await until(
    () => call('GET', `${site.base}/${fileId}/status`, { token: site.org.token }),
    (res) => res.status !== 200 || res.body.status !== 'processing',
    'the background extraction',
    // A bound for a worker that never runs, not a speed (bin/bench-map-upload.ts measures that).
    240_000,
  );
  expect(status.status).toBe(200);
  return status.body;
}

/** The bounding box of the USGS sample's points. */
function quakesBbox(): number[] {
  const positions = usgsQuakes().features.map((f) => (f.geometry as { coordinates: number[] }).coordinates);
  const [lons, lats] = [positions.map((p) => p[0]!), positions.map((p) => p[1]!)];
  return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
}

/**
 * The background extraction's KMZ: 50,000 point placemarks, 4.8 MB of KML, past the 4 MiB a request
 * extracts itself. The worker reads any size as a stream, so its assertions (202 at once, every
 * feature, one stored collection) hold as well here as at issue 34's file of 230,000 placemarks
 * (22 MB of KML), which cost the test run about 13 CPU seconds more. KMZ_PLACEMARKS=230000 runs
 * this test at that size; its time and memory are bin/bench-map-upload.ts's (docs/benchmarks.md).
 */
const KMZ_PLACEMARKS = Number(process.env.KMZ_PLACEMARKS ?? 50_000);

describe('large map files in the background', () => {
  it(
    `a KMZ of ${KMZ_PLACEMARKS.toLocaleString('en')} placemarks, past a request's KML budget, is accepted at once and extracted by the worker, every feature`,
    { timeout: 300_000 },
    async () => {
      const site = await newSite();
      const count = KMZ_PLACEMARKS;
      const kml = pointsKml(count);
      // Past what a request extracts itself: the extract hands it to the worker.
      expect(Buffer.byteLength(kml)).toBeGreaterThan(MAX_SYNC_KML_BYTES);
      const data = await kmzBytes(kml);
      const ticket = await presignedUpload(site, 'poles.kmz', data);
      const accepted = await call('POST', `${site.base}/${ticket.file_id}/extract`, { token: site.org.token });
      expect(accepted.status).toBe(202);
      const processing = {
        file_id: ticket.file_id,
        environment_id: site.environmentId,
        filename: 'poles.kmz',
        status: 'processing',
        reason: null,
        file: null,
      };
      expect(accepted.body).toEqual(processing);
      // Asking again while it is processing answers the same, and queues nothing more.
      const again = await call('POST', `${site.base}/${ticket.file_id}/extract`, { token: site.org.token });
      expect([again.status, again.body.status]).toEqual([202, expect.stringMatching(/processing|ready/)]);

      const done = await settled(site, ticket.file_id);
      expect(done).toMatchObject({ status: 'ready', reason: null });
      expect(done.file).toMatchObject({
        file_id: ticket.file_id,
        format: 'kmz',
        size_bytes: data.length,
        feature_count: count,
        geometry_types: ['Point'],
        bbox: pointsKmlBbox(count),
        created_by: site.org.userId,
      });
      const list = await call('GET', site.base, { token: site.org.token });
      expect(list.body).toMatchObject({ total: 1, items: [done.file] });
      const prefix = `${environmentPrefix(site.org.tenantId, site.environmentId)}files/${ticket.file_id}/`;
      expect(await objectsUnder(prefix)).toEqual([`${prefix}features.geojson`, `${prefix}original.kmz`]);
      expect((await auditEntriesOf(site.org.tenantId)).find((e) => e.resource_id === ticket.file_id)).toMatchObject({
        action: 'infrastructure_file.created',
        user_id: site.org.userId,
        changes: { via: 'upload_url', feature_count: count },
      });
      expect((await call('POST', `${site.base}/${ticket.file_id}/extract`, { token: site.org.token })).status).toBe(
        409,
      );
    },
  );

  it(
    'a large KMZ that does not parse ends failed with the reason, and nothing of it stays',
    { timeout: 300_000 },
    async () => {
      const site = await newSite();
      const broken = pointsKml(50_000).replace('</Document></kml>', '</Document>');
      const ticket = await presignedUpload(site, 'poles.kmz', await kmzBytes(broken));
      const accepted = await call('POST', `${site.base}/${ticket.file_id}/extract`, { token: site.org.token });
      expect(accepted.status).toBe(202);
      const done = await settled(site, ticket.file_id);
      expect(done).toMatchObject({ status: 'failed', file: null });
      expect(done.reason).toMatch(/^doc\.kml in the KMZ archive does not parse as XML/);
      expect(await objectsUnder(environmentPrefix(site.org.tenantId, site.environmentId))).toEqual([]);
      expect((await call('GET', site.base, { token: site.org.token })).body.total).toBe(0);
      const retried = await call('POST', `${site.base}/${ticket.file_id}/extract`, { token: site.org.token });
      expect(retried.status).toBe(409);
      expect(retried.body.detail).toMatch(/^The extraction of this file failed: doc\.kml in the KMZ archive/);
    },
  );

  it(
    'a direct upload of a KMZ past the request budget is 413 naming upload-url, and nothing is stored',
    { timeout: 120_000 },
    async () => {
      const site = await newSite();
      // 60,000 placemarks: 5.8 MB of KML in a 330 KB KMZ, which the request extracted before (in seconds, at 1 GB).
      const res = await upload(site.org.token, site.environmentId, 'poles.kmz', await kmzBytes(pointsKml(60_000)));
      expect(res.status).toBe(413);
      expect(res.body.detail).toMatch(/^doc\.kml in the KMZ archive is more than 4194304 bytes of KML/);
      expect(res.body.detail).toContain(`POST ${site.base}/upload-url`);
      await expectNothingStored(site);
    },
  );

  it(
    'a GeoJSON past the request budget (the USGS feed of a day grown to 8 MiB) is accepted at once and extracted by the worker',
    { timeout: 300_000 },
    async () => {
      const site = await newSite();
      const data = largeQuakesGeojsonBytes(MAX_SYNC_GEOJSON_BYTES + 64 * 1024);
      const sent = (JSON.parse(data.toString()) as { features: { id: string }[] }).features;
      const ticket = await presignedUpload(site, 'quakes.geojson', data);
      const accepted = await call('POST', `${site.base}/${ticket.file_id}/extract`, { token: site.org.token });
      expect(accepted.status).toBe(202);
      expect(accepted.body).toMatchObject({ file_id: ticket.file_id, status: 'processing', file: null });
      const done = await settled(site, ticket.file_id);
      expect(done).toMatchObject({ status: 'ready', reason: null });
      expect(done.file).toMatchObject({
        format: 'geojson',
        size_bytes: data.length,
        feature_count: sent.length,
        geometry_types: ['Point'],
        bbox: quakesBbox(),
        created_by: site.org.userId,
      });
      // Over 4 MB: the answer is a redirect to the stored collection, which fetch follows.
      const features = await call('GET', `${site.base}/${ticket.file_id}/features`, { token: site.org.token });
      const served = features.body.features as { id: string }[];
      expect(served.map((f) => f.id)).toEqual(sent.map((f) => f.id));
      expect(served[0]).toEqual({ ...usgsQuakes().features[0], id: sent[0]!.id });
    },
  );

  it(
    'a zipped shapefile past the request budget (the USGS sample, 3,000 records) is accepted at once and extracted by the worker',
    { timeout: 300_000 },
    async () => {
      const site = await newSite();
      // 3,000 records of 3.8 KB in the .dbf: 11 MB of shapefile data in a zip of 100 KB.
      const data = await repeatShapefileRecords(await shapefileZipBytes(usgsQuakes()), 150);
      const ticket = await presignedUpload(site, 'quakes.zip', data);
      const accepted = await call('POST', `${site.base}/${ticket.file_id}/extract`, { token: site.org.token });
      expect(accepted.status).toBe(202);
      const done = await settled(site, ticket.file_id);
      expect(done).toMatchObject({ status: 'ready', reason: null });
      expect(done.file).toMatchObject({
        format: 'shapefile',
        size_bytes: data.length,
        feature_count: 3000,
        geometry_types: ['Point'],
        bbox: quakesBbox(),
      });
      const features = await call('GET', `${site.base}/${ticket.file_id}/features`, { token: site.org.token });
      expect(features.body.features).toHaveLength(3000);
      expect(features.body.features[2999].properties).toMatchObject({
        place: usgsQuakes().features[19]!.properties!.place,
      });
    },
  );

  it(
    'a GeoJSON of more features than the worker reads ends failed with the reason, and nothing of it stays',
    { timeout: 300_000 },
    async () => {
      const site = await newSite();
      const feature = '{"type":"Feature","properties":{},"geometry":null}';
      const data = Buffer.from(
        `{"type":"FeatureCollection","features":[${Array(MAX_STREAM_FEATURES + 1)
          .fill(feature)
          .join(',')}]}`,
      );
      const ticket = await presignedUpload(site, 'notes.geojson', data);
      const accepted = await call('POST', `${site.base}/${ticket.file_id}/extract`, { token: site.org.token });
      expect(accepted.status).toBe(202);
      const done = await settled(site, ticket.file_id);
      expect(done).toMatchObject({
        status: 'failed',
        reason: 'The GeoJSON holds more than 500000 features; at most 500000 are read',
        file: null,
      });
      expect(await objectsUnder(environmentPrefix(site.org.tenantId, site.environmentId))).toEqual([]);
      expect((await call('GET', site.base, { token: site.org.token })).body.total).toBe(0);
    },
  );

  it('a direct upload of a large GeoJSON is 413 naming the presigned route, and nothing is stored', async () => {
    const site = await newSite();
    const res = await upload(
      site.org.token,
      site.environmentId,
      'quakes.geojson',
      largeQuakesGeojsonBytes(MAX_DIRECT_UPLOAD_BYTES + 64 * 1024),
    );
    expect(res.status).toBe(413);
    expect(res.body.detail).toContain(`upload it through POST ${site.base}/upload-url, PUT it to the URL given`);
    expect(res.body.detail).toContain(`then POST ${site.base}/{file_id}/extract`);
    await expectNothingStored(site);
  });

  it(
    'a direct upload of a zipped shapefile past the request budget is 413 naming upload-url, and nothing is stored',
    { timeout: 120_000 },
    async () => {
      const site = await newSite();
      // 20,000 records: 75 MB of .dbf in a zip of 2.4 MB, which the request read whole before.
      const data = await repeatShapefileRecords(await shapefileZipBytes(usgsQuakes()), 1000);
      expect(data.length).toBeLessThan(MAX_DIRECT_UPLOAD_BYTES);
      const res = await upload(site.org.token, site.environmentId, 'quakes.zip', data);
      expect(res.status).toBe(413);
      expect(res.body.detail).toMatch(/^The zipped shapefile is more than 8388608 bytes of shapefile data/);
      expect(res.body.detail).toContain(`POST ${site.base}/upload-url`);
      await expectNothingStored(site);
    },
  );
});

describe('infrastructure.status', () => {
  it('follows a file from its upload URL to ready; an unknown id is 404', async () => {
    const site = await newSite();
    const data = kmlBytes();
    const ticket = await presignedUpload(site, 'port.kml', data);
    const waiting = await call('GET', `${site.base}/${ticket.file_id}/status`, { token: site.org.token });
    expect(waiting.status).toBe(200);
    expect(waiting.body).toEqual({
      file_id: ticket.file_id,
      environment_id: site.environmentId,
      filename: 'port.kml',
      status: 'awaiting_upload',
      reason: null,
      file: null,
    });
    const stored = await call('POST', `${site.base}/${ticket.file_id}/extract`, { token: site.org.token });
    expect(stored.status).toBe(201);
    const ready = await call('GET', `${site.base}/${ticket.file_id}/status`, { token: site.org.token });
    expect(ready.body).toMatchObject({ status: 'ready', reason: null, file: stored.body });
    const unknown = await call('GET', `${site.base}/${UNKNOWN_ID}/status`, { token: site.org.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Infrastructure file not found' });
  });
});

describe('infrastructure.list', () => {
  it('lists newest first with the environment file count as total, and pages', async () => {
    const site = await newSite();
    const ids: string[] = [];
    for (const name of ['one.geojson', 'two.kml', 'three.kmz']) {
      const data = name.endsWith('.geojson') ? geojsonBytes() : name.endsWith('.kml') ? kmlBytes() : await kmzBytes();
      ids.push((await upload(site.org.token, site.environmentId, name, data)).body.file_id);
    }
    const all = await call('GET', site.base, { token: site.org.token });
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    expect(all.body.items.map((f: { file_id: string }) => f.file_id)).toEqual([...ids].reverse());
    expect(Object.keys(all.body.items[0]).sort()).toEqual([
      'bbox',
      'created_at',
      'created_by',
      'environment_id',
      'feature_count',
      'file_id',
      'filename',
      'format',
      'geometry_types',
      'size_bytes',
      'tenant_id',
    ]);
    const page = await call('GET', site.base, { token: site.org.token, query: { limit: 1, offset: 1 } });
    expect(page.body).toMatchObject({
      total: 3,
      limit: 1,
      offset: 1,
      items: [{ file_id: ids[1], filename: 'two.kml' }],
    });
  });

  it("a VIEWER may list; another tenant's environment is 404; other environments' files are not listed", async () => {
    const site = await newSite();
    await upload(site.org.token, site.environmentId, 'assets.geojson', geojsonBytes());
    const viewer = await createUser(site.org.token, 'VIEWER');
    expect((await call('GET', site.base, { token: viewer.token })).body.total).toBe(1);
    const second = await call('POST', '/api/v1/environments', {
      token: site.org.token,
      body: { name: 'Depot', type: 'port' },
    });
    const empty = await call('GET', `/api/v1/environments/${second.body.environment_id}/infrastructure`, {
      token: site.org.token,
    });
    expect(empty.body).toMatchObject({ items: [], total: 0 });
    const other = await registerTenant('Rival');
    const cross = await call('GET', site.base, { token: other.token });
    expect(cross.status).toBe(404);
    expect(cross.body).toEqual({ detail: 'Environment not found' });
  });
});

describe('infrastructure.features', () => {
  it('serves the stored FeatureCollection; an unknown id or one of another environment is 404', async () => {
    const site = await newSite();
    const file = await upload(site.org.token, site.environmentId, 'port.kml', kmlBytes());
    const res = await call('GET', `${site.base}/${file.body.file_id}/features`, { token: site.org.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/json/);
    expect(res.body.features.map((f: { geometry: { type: string } }) => f.geometry.type)).toEqual([
      'LineString',
      'Polygon',
    ]);
    expect((await call('GET', `${site.base}/${UNKNOWN_ID}/features`, { token: site.org.token })).status).toBe(404);
    const second = await call('POST', '/api/v1/environments', {
      token: site.org.token,
      body: { name: 'Depot', type: 'port' },
    });
    const elsewhere = await call(
      'GET',
      `/api/v1/environments/${second.body.environment_id}/infrastructure/${file.body.file_id}/features`,
      {
        token: site.org.token,
      },
    );
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toEqual({ detail: 'Infrastructure file not found' });
  });

  it('a collection too large for a response body is a redirect to the stored object', { timeout: 60_000 }, async () => {
    const site = await newSite();
    const data = largeGeojsonBytes(6 * 1024 * 1024);
    const ticket = await presignedUpload(site, 'cables.geojson', data);
    const extracted = await call('POST', `${site.base}/${ticket.file_id}/extract`, { token: site.org.token });
    expect(extracted.status).toBe(201);
    const url = new URL(`${site.base}/${ticket.file_id}/features`, baseUrl());
    const redirect = await fetch(url, { headers: { authorization: `Bearer ${site.org.token}` }, redirect: 'manual' });
    expect(redirect.status).toBe(307);
    expect(redirect.headers.get('location')).toContain(`files/${ticket.file_id}/features.geojson`);
    // A client that follows redirects (fetch does by default) just gets the collection.
    const followed = await call('GET', `${site.base}/${ticket.file_id}/features`, { token: site.org.token });
    expect(followed.status).toBe(200);
    expect(followed.body.features).toHaveLength(extracted.body.feature_count);
  });
});

describe('infrastructure.delete', () => {
  it('removes the objects and the item and answers what it removed; features are then 404', async () => {
    const site = await newSite();
    const file = await upload(site.org.token, site.environmentId, 'port.kmz', await kmzBytes());
    const keep = await upload(site.org.token, site.environmentId, 'assets.geojson', geojsonBytes());
    const res = await call('DELETE', `${site.base}/${file.body.file_id}`, { token: site.org.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ file_id: file.body.file_id, deleted: true, objects_removed: 3 });
    const filesPrefix = `${environmentPrefix(site.org.tenantId, site.environmentId)}files/`;
    expect((await objectsUnder(filesPrefix)).every((k) => k.startsWith(`${filesPrefix}${keep.body.file_id}/`))).toBe(
      true,
    );
    expect((await call('GET', `${site.base}/${file.body.file_id}/features`, { token: site.org.token })).status).toBe(
      404,
    );
    const list = await call('GET', site.base, { token: site.org.token });
    expect(list.body).toMatchObject({ total: 1, items: [{ file_id: keep.body.file_id }] });
    expect((await auditEntriesOf(site.org.tenantId)).at(-1)).toMatchObject({
      action: 'infrastructure_file.deleted',
      resource_id: file.body.file_id,
      changes: { filename: 'port.kmz', objects_removed: 3 },
    });
    expect((await call('DELETE', `${site.base}/${file.body.file_id}`, { token: site.org.token })).status).toBe(404);
  });

  it('needs TENANT_ADMIN', async () => {
    const site = await newSite();
    const file = await upload(site.org.token, site.environmentId, 'assets.geojson', geojsonBytes());
    const operator = await createUser(site.org.token, 'OPERATOR');
    expect((await call('DELETE', `${site.base}/${file.body.file_id}`, { token: operator.token })).status).toBe(403);
  });
});

describe('infrastructure files across tenants', () => {
  it("another tenant's environment or file id is 404 on every route, and nothing of theirs changes", async () => {
    const site = await newSite();
    const file = await upload(site.org.token, site.environmentId, 'port.kml', kmlBytes());
    const ticket = await call('POST', `${site.base}/upload-url`, {
      token: site.org.token,
      body: { filename: 'a.kml', size_bytes: 10 },
    });
    const rival = await newSite('Rival');
    const token = rival.org.token;
    const theirs = site.base;
    // Their environment, with their file ids.
    const attempts = [
      await upload(token, site.environmentId, 'assets.geojson', geojsonBytes()),
      await call('POST', `${theirs}/upload-url`, { token, body: { filename: 'a.kml', size_bytes: 10 } }),
      await call('POST', `${theirs}/${ticket.body.file_id}/extract`, { token }),
      await call('GET', theirs, { token }),
      await call('GET', `${theirs}/${file.body.file_id}/features`, { token }),
      await call('DELETE', `${theirs}/${file.body.file_id}`, { token }),
      // Our own environment, with their file ids.
      await call('POST', `${rival.base}/${ticket.body.file_id}/extract`, { token }),
      await call('GET', `${rival.base}/${file.body.file_id}/features`, { token }),
      await call('DELETE', `${rival.base}/${file.body.file_id}`, { token }),
    ];
    expect(attempts.map((a) => a.status)).toEqual([404, 404, 404, 404, 404, 404, 404, 404, 404]);
    expect(attempts.slice(0, 6).map((a) => a.body)).toEqual(Array(6).fill({ detail: 'Environment not found' }));
    expect(attempts.slice(6).map((a) => a.body)).toEqual(Array(3).fill({ detail: 'Infrastructure file not found' }));
    const mine = await call('GET', site.base, { token: site.org.token });
    expect(mine.body).toMatchObject({ total: 1, items: [{ file_id: file.body.file_id }] });
    expect(await fileItemsOf(site.org.tenantId)).toEqual(
      expect.arrayContaining([`FILE#${file.body.file_id}`, `UPLOAD#${ticket.body.file_id}`]),
    );
  });
});
