import { render, screen } from '@testing-library/react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import { describe, expect, it } from 'vitest';
import { requiredClasses } from './test-styles';

describe('the screen tests’ styles (test-styles.ts)', () => {
  it('reads the classes a selector’s subject needs, and declines what it cannot read simply', () => {
    expect(requiredClasses('.a')).toEqual(['a']);
    expect(requiredClasses('.css-1x2y-MuiButton-root')).toEqual(['css-1x2y-MuiButton-root']);
    expect(requiredClasses('.a:hover > .b.c:not(.d)')).toEqual(['b', 'c']);
    expect(requiredClasses('.a .b')).toEqual(['b']);
    expect(requiredClasses('.a+.b~.c')).toEqual(['c']);
    expect(requiredClasses('.a:has(> .b)')).toEqual(['a']);
    expect(requiredClasses('.a::before')).toEqual(['a']);
    expect(requiredClasses('div#x.a[data-y=z]')).toEqual(['a']);
    expect(requiredClasses('div')).toEqual([]);
    expect(requiredClasses('.a :hover')).toEqual([]);
    for (const unread of ['.a, .b', '.café', '.a\\:b', '[data-x=".y"]', '.a ', '.5', 'svg|a.b', '.a(']) {
      expect(requiredClasses(unread), unread).toBeNull();
    }
  });

  it('never answers "no match" for a rule that matches: every rule of a rendered screen against every element', () => {
    render(
      <Box className="outer">
        <style>{'.outer .inner { color: red } .outer > .b.c:not(.d) { color: blue } .e:has(> .inner) { color: green }'}</style>
        <p className="e">
          <span className="inner">uno</span>
        </p>
        <span className="b c">dos</span>
        <Button>Guardar</Button>
        <Button disabled variant="outlined">
          Aplicar
        </Button>
        <TextField label="Monto" error helperText="Requerido" />
        <Tabs value={0}>
          <Tab label="Uno" />
          <Tab label="Dos" />
        </Tabs>
      </Box>,
    );
    const selectors: string[] = [];
    const collect = (rules: CSSRuleList) => {
      for (const rule of Array.from(rules)) {
        if (rule instanceof CSSStyleRule) selectors.push(rule.selectorText);
        else if ('cssRules' in rule) collect((rule as CSSGroupingRule).cssRules);
      }
    };
    for (const sheet of Array.from(document.styleSheets)) collect(sheet.cssRules);
    expect(selectors.length).toBeGreaterThan(50);
    /** A selector jsdom cannot match (a vendor pseudo-element) matches nothing. */
    const matches = (element: Element, selector: string) => {
      try {
        return element.matches(selector);
      } catch {
        return false;
      }
    };
    let skipped = 0;
    let matched = 0;
    for (const element of Array.from(document.querySelectorAll('*'))) {
      for (const selector of selectors) {
        const classes = requiredClasses(selector);
        if (!classes || classes.every((name) => element.classList.contains(name))) {
          if (classes?.length && matches(element, selector)) matched += 1;
          continue;
        }
        skipped += 1;
        expect(matches(element, selector), `${selector} on <${element.localName} class="${element.className}">`).toBe(false);
      }
    }
    expect(skipped).toBeGreaterThan(1000);
    expect(matched).toBeGreaterThan(10);
  });

  it('keeps emotion’s rules in one sheet and computes the styles they set, after a change as before it', () => {
    const { rerender } = render(<Box data-testid="box" sx={{ display: 'block', visibility: 'visible' }} />);
    const box = screen.getByTestId('box');
    expect(window.getComputedStyle(box).display).toBe('block');
    expect(box).toBeVisible();
    rerender(<Box data-testid="box" sx={{ display: 'none' }} />);
    expect(window.getComputedStyle(box).display).toBe('none');
    expect(box).not.toBeVisible();
    rerender(<Box data-testid="box" sx={{ visibility: 'hidden' }} />);
    expect(window.getComputedStyle(box).visibility).toBe('hidden');
    expect(document.querySelectorAll('style[data-emotion]')).toHaveLength(1);
  });
});
