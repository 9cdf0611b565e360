/** The offline extractor on written sentences: type, severity, place, time, counts, questions. */
import { describe, expect, it } from 'vitest';
import { LocalExtractor } from '../../shared/local/extraction/extractor.js';

const extract = (text: string) => new LocalExtractor().extract(text);

describe('LocalExtractor.extract', () => {
  it('reads the acceptance sentence completely', async () => {
    const { fields, missing, questions } = await extract('There is a suspicious person near gate four at the north fence');
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
    const { fields, missing, questions } = await extract('Two people climbing over the south fence near the parking lot.');
    expect(fields.type).toBe('perimeter_breach');
    expect(fields.severity).toBe('high');
    expect(fields.location_text).toBe('over the south fence near the parking lot');
    expect(fields.people).toEqual(['2 people']);
    expect(missing).toEqual(['occurred_at_text']);
    expect(questions).toEqual(['When did it happen?']);
  });

  it('puts the more serious kind first and reads a relative time', async () => {
    const { fields } = await extract('Smoke and fire at the west door of the building, about ten minutes ago, an intruder ran off');
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
    expect((await extract('a drone is flying over the east gate')).fields).toMatchObject({ type: 'drone', vehicles: ['1 drone'], location_text: 'over the east gate' });
    expect((await extract('two boats at the dock')).fields).toMatchObject({ type: 'vessel', vehicles: ['2 boats'], location_text: 'at the dock' });
  });

  it('turns what it cannot find into follow-up questions', async () => {
    const { fields, missing, questions } = await extract('hello can you hear me');
    expect(fields.type).toBeUndefined();
    expect(missing).toEqual(['type', 'severity', 'location_text', 'occurred_at_text']);
    expect(questions).toContain('Where exactly did it happen?');
    expect(questions).toHaveLength(missing.length);
  });

  it('asks for everything on an empty transcript', async () => {
    expect((await extract('  ')).missing).toEqual(['title', 'type', 'severity', 'location_text', 'occurred_at_text', 'description']);
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
