import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SCIM_SCHEMAS } from '#shared/schemas/scim';
import { ScimError, applyOperation, parseFilter, parsePath, patchOperations, userDocument, type Doc } from './scim-protocol';

/** The pure SCIM layer (decision 39-02): paths, filters and PATCH as Entra ID and Okta send them, and hostile input as a class. */
const ENT = SCIM_SCHEMAS.enterprise;

describe('paths and filters', () => {
  it('reads the paths the identity providers send', () => {
    expect(parsePath('emails[type eq "work"].value')).toEqual({ ext: false, attr: 'emails', filter: { attr: 'type', value: 'work' }, sub: 'value' });
    expect(parsePath('NAME.GIVENNAME')).toEqual({ ext: false, attr: 'name', sub: 'givenName' });
    expect(parsePath(`${ENT}:manager`)).toEqual({ ext: true, attr: 'manager' });
    expect(parsePath(`${SCIM_SCHEMAS.user}:userName`)).toEqual({ ext: false, attr: 'userName' });
    expect(parsePath('members[value eq "2819c223-7f76-453a-919d-413861904646"]')).toMatchObject({ attr: 'members', filter: { attr: 'value', value: '2819c223-7f76-453a-919d-413861904646' } });
    expect(parseFilter('userName eq "a@b.test" and externalId eq "x \\"y\\""')).toEqual([
      { attr: 'userName', value: 'a@b.test' },
      { attr: 'externalId', value: 'x "y"' },
    ]);
  });

  it('refuses what it does not support with a SCIM error type', () => {
    for (const f of ['userName co "a"', 'userName eq', '(userName eq "a")', 'userName eq "a" or userName eq "b"', '']) {
      expect(() => parseFilter(f)).toThrowError(expect.objectContaining({ status: 400, scimType: 'invalidFilter' }));
    }
    expect(() => parsePath('emails[type eq "work"')).toThrowError(expect.objectContaining({ scimType: 'invalidPath' }));
  });

  it('generated text: a parse either works or answers a 400 SCIM error, never anything else', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        for (const fn of [() => parseFilter(text), () => parsePath(text)]) {
          try {
            fn();
          } catch (e) {
            expect(e).toBeInstanceOf(ScimError);
            expect((e as ScimError).status).toBe(400);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('PATCH operations', () => {
  const base = (): Doc => userDocument({ schemas: [SCIM_SCHEMAS.user], userName: 'a@b.test', emails: [{ type: 'work', value: 'a@b.test', primary: true }], name: { givenName: 'A' } });

  it("Entra ID's capitalised ops, filtered paths and the manager id; Okta's path-less value objects", () => {
    const doc = base();
    for (const o of patchOperations({
      schemas: [SCIM_SCHEMAS.patch],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'new@b.test' },
        { op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 212 555 0100' },
        { op: 'Add', path: `${ENT}:department`, value: 'Sales' },
        { op: 'replace', value: { active: false, 'name.familyName': 'B', [`${ENT}:employeeNumber`]: '7' } },
        { op: 'Remove', path: 'name.givenName' },
      ],
    }))
      applyOperation(doc, o.op, o.path, o.value);
    expect(doc.emails).toEqual([{ type: 'work', value: 'new@b.test', primary: true }]);
    expect(doc.phoneNumbers).toEqual([{ type: 'mobile', value: '+1 212 555 0100' }]);
    expect(doc[ENT]).toEqual({ department: 'Sales', employeeNumber: '7' });
    expect(doc.active).toBe(false);
    expect(doc.name).toEqual({ familyName: 'B' });
  });

  it('a manager sent as a string, an object or a list is stored as { value }', () => {
    for (const manager of ['m-1', { value: 'm-1' }, [{ value: 'm-1', $ref: null }]]) {
      expect(userDocument({ userName: 'x@y.test', [ENT]: { manager } })[ENT]).toEqual({ manager: { value: 'm-1' } });
    }
  });

  it('server-owned and prototype keys are never taken from the client', () => {
    const doc = userDocument(JSON.parse('{"userName":"x@y.test","id":"forged","meta":{"created":"x"},"groups":[{"value":"g"}],"password":"p","__proto__":{"polluted":true}}'));
    expect(doc).toEqual({ userName: 'x@y.test' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('generated operations: applied or refused with a 400 SCIM error, never another failure', () => {
    const value = fc.oneof(fc.string({ maxLength: 20 }), fc.boolean(), fc.constant(null), fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), { maxKeys: 4 }));
    fc.assert(
      fc.property(fc.constantFrom('add', 'Replace', 'remove', 'MOVE', 7), fc.option(fc.string({ maxLength: 60 }), { nil: undefined }), value, (op, path, v) => {
        const doc = base();
        try {
          for (const o of patchOperations({ Operations: [{ op, ...(path !== undefined ? { path } : {}), value: v }] })) applyOperation(doc, o.op, o.path, o.value);
        } catch (e) {
          expect(e).toBeInstanceOf(ScimError);
          expect((e as ScimError).status).toBe(400);
        }
      }),
      { numRuns: 500 },
    );
  });
});
