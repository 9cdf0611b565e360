/** The offline extractor on written sentences: type, severity, place, time, counts, questions. */
import { describe, expect, it } from 'vitest';
import { LocalExtractor } from '../../shared/local/extraction/extractor.js';

const extract = (text: string) => new LocalExtractor().extract(text);

describe('LocalExtractor.extract', () => {
  it('reads the acceptance sentence completely', async () => {
    const { fields, missing, questions } = await extract(
      'There is a suspicious person near gate four at the north fence',
    );
    expect(fields).toEqual({
      title: 'Suspicious person near gate four at the north fence',
      type: 'suspicious_activity',
      severity: 'medium',
      location_text: 'near gate four at the north fence',
      occurred_at_text: 'ongoing at the time of the report',
      people: ['1 suspicious person'],
      description: 'There is a suspicious person near gate four at the north fence.',
    });
    expect(missing).toEqual([]);
    expect(questions).toEqual([]);
  });

  it('counts people and asks when it happened when nothing says so', async () => {
    const { fields, missing, questions } = await extract(
      'Two people climbing over the south fence near the parking lot.',
    );
    expect(fields.type).toBe('perimeter_breach');
    expect(fields.severity).toBe('high');
    expect(fields.location_text).toBe('over the south fence near the parking lot');
    expect(fields.people).toEqual(['2 people']);
    expect(missing).toEqual(['occurred_at_text']);
    expect(questions).toEqual(['When did it happen?']);
  });

  it('puts the more serious kind first and reads a relative time', async () => {
    const { fields } = await extract(
      'Smoke and fire at the west door of the building, about ten minutes ago, an intruder ran off',
    );
    expect(fields.type).toBe('fire');
    expect(fields.severity).toBe('critical');
    expect(fields.location_text).toBe('at the west door of the building');
    expect(fields.occurred_at_text).toBe('ten minutes ago');
  });

  it('counts vehicles, reads a clock time and lets a word raise the severity', async () => {
    const { fields } = await extract('I saw a white van and two cars parked behind the warehouse at 22:15, urgent');
    expect(fields.type).toBe('vehicle');
    expect(fields.severity).toBe('high');
    expect(fields.vehicles).toEqual(['1 white van', '2 cars']);
    expect(fields.location_text).toBe('behind the warehouse');
    expect(fields.occurred_at_text).toBe('at 22:15');
    expect(fields.title).toBe('White van and two cars parked behind the warehouse');
  });

  it('finds drones and boats as vehicles', async () => {
    expect((await extract('a drone is flying over the east gate')).fields).toMatchObject({
      type: 'drone',
      vehicles: ['1 drone'],
      location_text: 'over the east gate',
    });
    expect((await extract('two boats at the dock')).fields).toMatchObject({
      type: 'vessel',
      vehicles: ['2 boats'],
      location_text: 'at the dock',
    });
  });

  it('turns what it cannot find into follow-up questions', async () => {
    const { fields, missing, questions } = await extract('hello can you hear me');
    expect(fields.type).toBeUndefined();
    expect(missing).toEqual(['type', 'severity', 'location_text', 'occurred_at_text']);
    expect(questions).toContain('Where exactly did it happen?');
    expect(questions).toHaveLength(missing.length);
  });

  it('"near gate fire": one ambiguous word does not make a fire; it is asked back, naming the word', async () => {
    const { fields, missing, questions, doubts } = await extract('a man near gate fire');
    expect(fields.type).toBeUndefined();
    expect(fields.severity).toBeUndefined();
    expect(fields.location_text).toBe('near gate');
    expect(doubts).toEqual([{ field: 'type', word: 'fire' }]);
    expect(missing).toEqual(expect.arrayContaining(['type', 'severity']));
    expect(questions[missing.indexOf('type')]).toBe(
      'We heard "fire" but cannot be sure of it. What kind of incident is it (for example intrusion, suspicious activity, fire)?',
    );
    // With other evidence the kind is decided by that evidence.
    expect((await extract('a suspicious man near gate fire')).fields).toMatchObject({
      type: 'suspicious_activity',
      severity: 'medium',
    });
    // The same word twice, or with its kin, is a fire.
    expect((await extract('fire fire at the warehouse')).fields.type).toBe('fire');
    expect((await extract('smoke and fire at the warehouse')).fields.type).toBe('fire');
  });

  it('a word the recogniser was unsure of sets neither type nor severity alone', async () => {
    const unsure = (text: string, unsureWords: string[]) => new LocalExtractor().extract(text, { unsureWords });
    const fire = await unsure('smoke at the warehouse', ['smoke']);
    expect(fire.fields.type).toBeUndefined();
    expect(fire.doubts).toEqual([{ field: 'type', word: 'smoke' }]);
    // A sure word of the same kind decides it.
    expect((await unsure('smoke and flames at the warehouse', ['smoke'])).fields.type).toBe('fire');
    // An unsure severity word is not taken; the kind's own severity is.
    const urgent = await unsure('two people climbing over the fence, critical', ['critical']);
    expect(urgent.fields).toMatchObject({ type: 'perimeter_breach', severity: 'high' });
    expect(urgent.doubts).toEqual([{ field: 'severity', word: 'critical' }]);
    const bare = await unsure('critical', ['critical']);
    expect(bare.questions[bare.missing.indexOf('severity')]).toBe(
      'We heard "critical" but cannot be sure of it. How serious is it: low, medium, high or critical?',
    );
  });

  it('asks for everything on an empty transcript', async () => {
    expect((await extract('  ')).missing).toEqual([
      'title',
      'type',
      'severity',
      'location_text',
      'occurred_at_text',
      'description',
    ]);
  });
});

describe('LocalExtractor.summarize', () => {
  it('writes the fields in one fixed sentence', async () => {
    const text = 'there is a suspicious person near gate four at the north fence';
    const ai = new LocalExtractor();
    const { fields } = await ai.extract(text);
    expect(await ai.summarize({ fields, transcript: text })).toBe(
      'Medium suspicious activity: Suspicious person near gate four at the north fence; location near gate four at the north fence; ' +
        'time ongoing at the time of the report; people 1 suspicious person. Reported: There is a suspicious person near gate four at the north fence.',
    );
  });
});
