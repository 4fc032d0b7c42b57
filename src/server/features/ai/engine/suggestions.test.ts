import { describe, expect, it } from 'vitest';
import { BUNDLED_FONTS } from '#shared/fonts';
import { BRAND_PERSONALITIES, INDUSTRIES, AiSuggestionCreateBody, type DesignSuggestionsRequest } from '#shared/schemas/ai';
import { contrastRatio } from '#shared/ai/color';
import { classifyAudience, classifyRole, generateDesignSuggestions } from './suggestions';

const suggest = (body: DesignSuggestionsRequest) => generateDesignSuggestions(AiSuggestionCreateBody.parse(body));
const FAMILIES = BUNDLED_FONTS.map((f) => f.family);

describe('design suggestions (built-in rule base)', () => {
  it('differ meaningfully across industries', () => {
    const tech = suggest({ companyName: 'Acme Robotics', industry: 'Technology', role: 'Software Engineer' });
    const legal = suggest({ companyName: 'Acme Robotics', industry: 'Legal', role: 'Software Engineer' });
    expect(tech.industryTips.some((t) => legal.industryTips.includes(t))).toBe(false);
    expect(tech.colorPalette.map((c) => c.hex)).not.toEqual(legal.colorPalette.map((c) => c.hex));
    expect(tech.layoutSuggestions[0].templateId).not.toBe(legal.layoutSuggestions[0].templateId);
    expect(legal.fontRecommendations[0].family).toBe('Playfair Display');
    expect(tech.fontRecommendations.map((f) => f.family)).toContain('JetBrains Mono');
  });

  it('every industry gets its own tips and palette', () => {
    const results = INDUSTRIES.map((industry) => suggest({ companyName: 'Northwind', industry, role: 'Manager' }));
    const tipSets = new Set(results.map((r) => r.industryTips.join('|')));
    expect(tipSets.size).toBe(INDUSTRIES.length);
    const primaries = new Set(results.map((r) => r.colorPalette[0].hex));
    expect(primaries.size).toBeGreaterThanOrEqual(10);
  });

  it('respond to role, personality and audience', () => {
    const base = { companyName: 'Harbor Realty', industry: 'Real Estate' } as const;
    const agent = suggest({ ...base, role: 'Real Estate Agent' });
    const ceo = suggest({ ...base, role: 'CEO' });
    expect(agent.brandingAdvice[0]).not.toBe(ceo.brandingAdvice[0]);
    expect(agent.brandingAdvice[0]).toContain('Real Estate Agent');
    const elegant = suggest({ ...base, role: 'CEO', brandPersonality: 'Elegant' });
    const energetic = suggest({ ...base, role: 'CEO', brandPersonality: 'Energetic' });
    expect(elegant.fontRecommendations[0].family).toBe('Playfair Display');
    expect(energetic.fontRecommendations[0].family).toBe('Montserrat');
    const luxury = suggest({ ...base, role: 'CEO', targetAudience: 'luxury home buyers' });
    expect(luxury.brandingAdvice.join(' ')).toMatch(/Titanium/);
  });

  it('only name bundled fonts and the four templates, for every industry and personality', () => {
    for (const industry of INDUSTRIES) {
      for (const brandPersonality of BRAND_PERSONALITIES) {
        const r = suggest({ companyName: 'Test Co', industry, role: 'Founder', brandPersonality });
        expect(r.engine).toBe('built-in');
        for (const f of r.fontRecommendations) {
          expect(FAMILIES).toContain(f.family);
          expect(f.weights.length).toBeGreaterThan(0);
          for (const w of f.weights) expect(BUNDLED_FONTS.find((b) => b.family === f.family)!.weights).toContain(w);
        }
        expect(r.layoutSuggestions.length).toBeGreaterThanOrEqual(2);
        for (const l of r.layoutSuggestions) expect([15, 16, 17, 18]).toContain(l.templateId);
        expect(new Set(r.layoutSuggestions.map((l) => l.templateId)).size).toBe(r.layoutSuggestions.length);
        const bg = r.colorPalette.find((c) => c.role === 'background')!.hex;
        expect(contrastRatio(r.colorPalette.find((c) => c.role === 'text')!.hex, bg)).toBeGreaterThanOrEqual(7);
        expect(r.industryTips.length).toBeGreaterThanOrEqual(3);
        expect(r.brandingAdvice.length).toBeGreaterThanOrEqual(3);
      }
    }
  });

  it('build on the colours the brand already uses', () => {
    const r = suggest({ companyName: 'Hargrove LLP', industry: 'Legal', role: 'Partner', existingColors: '#5A1A2B, #C9A227' });
    expect(r.colorPalette[0].hex).toBe('#5A1A2B');
    expect(r.colorPalette.find((c) => c.role === 'accent')!.hex).toBe('#C9A227');
    const advice = r.brandingAdvice.join(' ');
    expect(advice).toContain('#5A1A2B');
    expect(advice).toMatch(/#C9A227 stays legible on black metal/);
  });

  it('are deterministic', () => {
    const body = { companyName: 'Acme', industry: 'Retail', role: 'Store Owner', targetAudience: 'local shoppers', brandPersonality: 'Friendly' } as const;
    expect(suggest(body)).toEqual(suggest(body));
  });

  it('classify roles and audiences', () => {
    expect(classifyRole('Managing Partner')).toBe('executive');
    expect(classifyRole('Senior Software Engineer')).toBe('technical');
    expect(classifyRole('Registered Nurse')).toBe('medical');
    expect(classifyRole('Licensed Electrician')).toBe('trades');
    expect(classifyRole('Barista')).toBe('general');
    expect(classifyAudience('Startup founders')?.kind).toBe('startups');
    expect(classifyAudience('patients and their families')?.kind).toBe('patients');
    expect(classifyAudience(undefined)).toBeNull();
  });
});
