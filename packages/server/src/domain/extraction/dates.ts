/**
 * When a text says something happened: a calendar date written in it ("2026-03-12", "March 12",
 * "12 March 2026", "on 3rd of May"). The year may be missing; the caller, who knows today, puts
 * it in (the extractor has no clock).
 */

export interface CalendarDate {
  year: number | null;
  month: number;
  day: number;
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] as const;
const MONTH = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
const ISO = /\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b/;
const MONTH_DAY = new RegExp(String.raw`\b${MONTH} (\d{1,2})(?:st|nd|rd|th)?\b(?:,? ((?:19|20)\d\d)\b)?`, 'i');
const DAY_MONTH = new RegExp(String.raw`\b(\d{1,2})(?:st|nd|rd|th)? (?:of )?${MONTH}(?:,? ((?:19|20)\d\d)\b)?`, 'i');

function monthOf(name: string): number {
  return MONTH_NAMES.indexOf(name.slice(0, 3).toLowerCase() as (typeof MONTH_NAMES)[number]) + 1;
}

function valid(date: CalendarDate): CalendarDate | null {
  if (date.month < 1 || date.month > 12 || date.day < 1 || date.day > 31) return null;
  return date;
}

/** The first calendar date written in the text, or null. */
export function dateIn(text: string): CalendarDate | null {
  const iso = ISO.exec(text);
  if (iso) return valid({ year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) });
  const monthDay = MONTH_DAY.exec(text);
  if (monthDay) {
    const year = monthDay[3] ? Number(monthDay[3]) : null;
    return valid({ year, month: monthOf(monthDay[1]!), day: Number(monthDay[2]) });
  }
  const dayMonth = DAY_MONTH.exec(text);
  if (dayMonth) {
    const year = dayMonth[3] ? Number(dayMonth[3]) : null;
    return valid({ year, month: monthOf(dayMonth[2]!), day: Number(dayMonth[1]) });
  }
  return null;
}
