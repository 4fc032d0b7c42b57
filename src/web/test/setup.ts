// Setup of the `web` Vitest project (component tests in jsdom, decision 34-06): Testing Library's
// DOM matchers, and after each test the rendered trees unmounted, fetch and any stubbed global
// given back, so one test's mock never answers the next one's request.
import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/dom';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// React's act() environment flag: Testing Library sets it with globals; the project runs without them
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// role queries skip the visibility check (a getComputedStyle walk per element, the slowest part of
// a query in jsdom): a test asks for what the component renders, hidden or not
// and findBy/waitFor wait up to 5 s, not Testing Library's 1 s: beside the browser files on a machine
// running at half speed, a form's answer once took longer than a second to show (a passing wait is no
// slower for it)
configure({ defaultHidden: true, asyncUtilTimeout: 5_000 });
