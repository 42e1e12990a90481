import { hexColor } from './units';
import { child, type XmlElement } from './xml-tree';

/**
 * The theme's colour scheme (ECMA-376 Part 1, §20.1.6.2 clrScheme), for w:color/@w:themeColor and
 * w:shd/@w:themeFill when a writer gives no RGB value (§17.3.2.6). Keys are the WordprocessingML
 * names (ST_ThemeColor, §17.18.97).
 */
export type ThemeColors = Readonly<Record<string, string>>;

const SCHEME_SLOTS: Record<string, string> = {
  dark1: 'a:dk1',
  light1: 'a:lt1',
  dark2: 'a:dk2',
  light2: 'a:lt2',
  text1: 'a:dk1',
  background1: 'a:lt1',
  text2: 'a:dk2',
  background2: 'a:lt2',
  accent1: 'a:accent1',
  accent2: 'a:accent2',
  accent3: 'a:accent3',
  accent4: 'a:accent4',
  accent5: 'a:accent5',
  accent6: 'a:accent6',
  hyperlink: 'a:hlink',
  followedHyperlink: 'a:folHlink',
};

export function readThemeColors(theme: XmlElement | undefined): ThemeColors {
  const scheme = child(child(theme, 'a:themeElements'), 'a:clrScheme');
  const colors: Record<string, string> = {};
  if (scheme === undefined) return colors;
  for (const [name, slot] of Object.entries(SCHEME_SLOTS)) {
    const element = child(scheme, slot);
    const rgb = hexColor(child(element, 'a:srgbClr')?.attributes.val);
    // System colours carry their last computed value (§20.1.2.3.33).
    const system = hexColor(child(element, 'a:sysClr')?.attributes.lastClr);
    const color = rgb ?? system;
    if (color) colors[name] = color;
  }
  return colors;
}

/**
 * A theme colour with w:themeTint / w:themeShade applied (§17.3.2.6): a tint moves each channel
 * toward white, a shade toward black, by the hex byte given (FF = unchanged).
 */
export function themeColor(
  colors: ThemeColors,
  name: string,
  tint: string | undefined,
  shade: string | undefined,
): string | undefined {
  const base = colors[name];
  if (base === undefined) return undefined;
  const tintValue = tint ? Number.parseInt(tint, 16) : Number.NaN;
  const shadeValue = shade ? Number.parseInt(shade, 16) : Number.NaN;
  if (Number.isNaN(tintValue) && Number.isNaN(shadeValue)) return base;
  let out = '';
  for (let i = 0; i < 6; i += 2) {
    let channel = Number.parseInt(base.slice(i, i + 2), 16);
    if (!Number.isNaN(tintValue)) channel = 255 - (255 - channel) * (tintValue / 255);
    if (!Number.isNaN(shadeValue)) channel = channel * (shadeValue / 255);
    out += Math.max(0, Math.min(255, Math.round(channel)))
      .toString(16)
      .padStart(2, '0');
  }
  return out.toUpperCase();
}
