import type { AlertCategory } from '../alerts.ts';
import { CURRENCIES } from '../billing/currencies.ts';
import type { Language } from '../roles.ts';
import { displayDate, displayLocalDateTime, localDateTime } from '../time/zoned.ts';
import { type VolumeUnit } from '../domain/buildings.ts';

/*
 * What an alert's details say, as one sentence in the reader's language, the building's volume
 * unit and the building's time zone (docs/alerts.md "What an alert says"). Written once here for
 * the alerts screen and the alert emails. Details are free-form facts stored by whoever raised the
 * alert (packages/server/src/alerts/raisers.ts, automation): a key this file does not know, or a
 * value of the wrong type, is still shown ("key: value"), never dropped and never a crash.
 */

/** Where the alert's facts are read: the building's unit and time zone. */
export type AlertPlace = { volumeUnit: VolumeUnit; timezone: string };

/** The parts of an alert its sentence is made of. */
export type AlertFacts = {
  category: AlertCategory | string;
  cause: string;
  details: Record<string, string | number | boolean | null>;
  /** When the alert opened (ISO): an event's time shows its date only when it is another day. */
  opened_at: string;
};

const TEXTS = {
  en: {
    flow: '{{volume}} in {{minutes}} {{when}}',
    flow_instant: '{{volume}} {{when}}',
    beyond_volume: 'beyond the {{margin}} margin',
    beyond_duration: 'beyond the {{margin}} margin',
    beyond_volume_unknown: 'beyond the volume margin',
    beyond_duration_unknown: 'beyond the duration margin',
    reported_late:
      'reported late: the flowbox’s readings arrived after the flow had stopped {{when}}, so the water was not closed',
    late_separator: '; ',
    reported_late_unknown:
      'reported late: the flowbox’s readings arrived after the flow had stopped, so the water was not closed',
    leak_continuous: 'Water has kept flowing without a pause: {{flow}}',
    leak_mode: 'Water flowed while leak detection mode was on: {{flow}}',
    away_flow: 'Water flowed while away mode was on (until {{until}}): {{flow}}',
    away_closed: 'the water was closed',
    no_flow_free_hour: 'No hour without water since {{since}}',
    at_night: '{{rate}} at night',
    loss_a_day: 'about {{volume}} a day',
    loss_and_cost_a_day: 'about {{volume}} and {{cost}} a day',
    balance_night:
      'Night of {{date}} (00:00–05:00): {{volume}} of the {{main}} through the main supply reached no zone’s meter ({{share}})',
    balance_beyond: 'beyond the {{threshold}} threshold',
    autotest_failed: 'The flowbox failed its autotest',
    valve_close_unconfirmed: 'The flowbox did not confirm closing its valve',
    valve_open_unconfirmed: 'The flowbox did not confirm opening its valve',
    asked_at_lock: 'asked for by automatic closing {{when}}',
    reboot_crash: 'The flowbox restarted after a crash',
    reboot_watchdog: 'The flowbox restarted by itself: it had stopped responding (watchdog)',
    firmware_failed: 'The firmware update to version {{version}} failed',
    firmware_rolled_back:
      'The firmware update to version {{version}} failed: the flowbox went back to its former firmware',
    firmware_invalid_naming:
      'The firmware update to version {{version}} was refused: the file’s name does not fit this flowbox',
    firmware_timeout:
      'The firmware update to version {{version}} stopped: the flowbox no longer reported its progress',
    firmware_block_download_failed:
      'The firmware update to version {{version}} stopped: the image could not be downloaded',
    rollout_failure_threshold:
      'The firmware rollout of version {{version}} ({{rollout}}) halted: too many flowboxes failed to update',
    rollout_image_withdrawn:
      'The firmware rollout of version {{version}} ({{rollout}}) halted: this version was withdrawn',
    humidity: 'Humidity inside the flowbox at {{value}}, {{side}} the {{threshold}} alert level',
    temperature: 'Water at {{value}}, {{side}} the {{threshold}} alert level',
    side_above: 'above',
    side_below: 'below',
    side_at: 'at',
    clock_ahead: 'The flowbox’s clock is {{skew}} ahead (more than {{bound}} off): check its time setting',
    clock_behind: 'The flowbox’s clock is {{skew}} behind (more than {{bound}} off): check its time setting',
    water_mismatch: 'The flowbox reports {{device}} water in a {{zone}}-water zone',
    water_hot: 'hot',
    water_cold: 'cold',
    silent_since: 'No message from the flowbox since {{date}} at {{time}}',
    never_heard: 'The flowbox has never sent a message',
    maintenance: 'The zone is in maintenance mode: automatic closing will not close the water',
    at_time: 'at {{time}}',
    on_date_at_time: 'on {{date}} at {{time}}',
    unit_liter: 'L',
    unit_m3: 'm³',
    unit_gallon: 'gal',
    unit_imperial_gallon: 'imp. gal',
    less_than: '< {{volume}}',
    yes: 'yes',
    no: 'no',
    none: 'none',
  },
  fr: {
    flow: '{{volume}} en {{minutes}} {{when}}',
    flow_instant: '{{volume}} {{when}}',
    beyond_volume: 'au-delà de la marge de {{margin}}',
    beyond_duration: 'au-delà de la marge de {{margin}}',
    beyond_volume_unknown: 'au-delà de la marge de volume',
    beyond_duration_unknown: 'au-delà de la marge de durée',
    reported_late:
      'signalé en retard : les relevés du flowbox sont arrivés après l’arrêt de l’écoulement {{when}}, l’eau n’a donc pas été fermée',
    late_separator: ' ; ',
    reported_late_unknown:
      'signalé en retard : les relevés du flowbox sont arrivés après l’arrêt de l’écoulement, l’eau n’a donc pas été fermée',
    leak_continuous: 'L’eau a coulé sans interruption : {{flow}}',
    leak_mode: 'De l’eau a coulé alors que le mode détection de fuite était activé : {{flow}}',
    away_flow: 'De l’eau a coulé pendant le mode absence (jusqu’au {{until}}) : {{flow}}',
    away_closed: 'l’eau a été fermée',
    no_flow_free_hour: 'Aucune heure sans eau depuis {{since}}',
    at_night: '{{rate}} la nuit',
    loss_a_day: 'environ {{volume}} par jour',
    loss_and_cost_a_day: 'environ {{volume}} et {{cost}} par jour',
    balance_night:
      'Nuit du {{date}} (00:00–05:00) : {{volume}} des {{main}} passés par l’alimentation principale n’ont atteint le compteur d’aucune zone ({{share}})',
    balance_beyond: 'au-delà du seuil de {{threshold}}',
    autotest_failed: 'Le flowbox a échoué à son autotest',
    valve_close_unconfirmed: 'Le flowbox n’a pas confirmé la fermeture de sa vanne',
    valve_open_unconfirmed: 'Le flowbox n’a pas confirmé l’ouverture de sa vanne',
    asked_at_lock: 'demandée par la fermeture automatique {{when}}',
    reboot_crash: 'Le flowbox a redémarré après un plantage',
    reboot_watchdog: 'Le flowbox a redémarré de lui-même : il ne répondait plus (chien de garde)',
    firmware_failed: 'La mise à jour du firmware vers la version {{version}} a échoué',
    firmware_rolled_back:
      'La mise à jour du firmware vers la version {{version}} a échoué : le flowbox est revenu à son ancien firmware',
    firmware_invalid_naming:
      'La mise à jour du firmware vers la version {{version}} a été refusée : le nom du fichier ne convient pas à ce flowbox',
    firmware_timeout:
      'La mise à jour du firmware vers la version {{version}} s’est arrêtée : le flowbox ne donnait plus de nouvelles',
    firmware_block_download_failed:
      'La mise à jour du firmware vers la version {{version}} s’est arrêtée : l’image n’a pas pu être téléchargée',
    rollout_failure_threshold:
      'Le déploiement du firmware {{version}} ({{rollout}}) s’est arrêté : trop de flowbox n’ont pas pu être mis à jour',
    rollout_image_withdrawn:
      'Le déploiement du firmware {{version}} ({{rollout}}) s’est arrêté : cette version a été retirée',
    humidity: 'Humidité dans le flowbox à {{value}}, {{side}} seuil d’alerte de {{threshold}}',
    temperature: 'Eau à {{value}}, {{side}} seuil d’alerte de {{threshold}}',
    side_above: 'au-dessus du',
    side_below: 'en dessous du',
    side_at: 'au niveau du',
    clock_ahead:
      'L’horloge du flowbox avance de {{skew}} (plus de {{bound}} d’écart) : vérifiez son réglage de l’heure',
    clock_behind:
      'L’horloge du flowbox retarde de {{skew}} (plus de {{bound}} d’écart) : vérifiez son réglage de l’heure',
    water_mismatch: 'Le flowbox indique de l’eau {{device}} dans une zone d’eau {{zone}}',
    water_hot: 'chaude',
    water_cold: 'froide',
    silent_since: 'Aucun message du flowbox depuis le {{date}} à {{time}}',
    never_heard: 'Le flowbox n’a jamais envoyé de message',
    maintenance: 'La zone est en mode maintenance : la fermeture automatique ne coupera pas l’eau',
    at_time: 'à {{time}}',
    on_date_at_time: 'le {{date}} à {{time}}',
    unit_liter: 'L',
    unit_m3: 'm³',
    unit_gallon: 'gal',
    unit_imperial_gallon: 'gal imp.',
    less_than: '< {{volume}}',
    yes: 'oui',
    no: 'non',
    none: 'aucune',
  },
} as const satisfies Record<Language, Record<string, string>>;

type TextKey = keyof (typeof TEXTS)['en'];

const LOCALE: Record<Language, string> = { en: 'en-US', fr: 'fr-FR' };

/** Litres in one unit; the shown decimals keep a litre visible in m³ and a tenth of one otherwise. */
const UNIT: Record<VolumeUnit, { liters: number; decimals: number }> = {
  liter: { liters: 1, decimals: 1 },
  m3: { liters: 1000, decimals: 3 },
  gallon: { liters: 3.785411784, decimals: 1 },
  imperial_gallon: { liters: 4.54609, decimals: 1 },
};

/** One sentence reader: the language, unit and time zone of one alert. */
class Writer {
  constructor(
    readonly language: Language,
    readonly place: AlertPlace,
    readonly openedAt: string,
  ) {}

  text(key: TextKey, params: Record<string, string> = {}): string {
    return TEXTS[this.language][key].replace(/\{\{(\w+)\}\}/g, (_, name: string) => params[name] ?? '');
  }

  number(value: number, decimals: number): string {
    return new Intl.NumberFormat(LOCALE[this.language], { maximumFractionDigits: decimals }).format(value);
  }

  /**
   * A volume in the building's unit, to the unit's decimals. Some water that rounds to none (a few
   * millilitres in a leak-mode alert) is "< 0.1 L", never "0 L": "<" rather than "less than", as the
   * resident's first screen during a leak has no line to spare at 390 px (e2e/resident-app.test.ts).
   */
  volume(liters: number): string {
    const unit = UNIT[this.place.volumeUnit] ?? UNIT.liter;
    const symbol = this.text(`unit_${this.place.volumeUnit in UNIT ? this.place.volumeUnit : 'liter'}`);
    const step = 10 ** -unit.decimals;
    if (liters > 0 && liters / unit.liters < step / 2)
      return this.text('less_than', { volume: `${this.number(step, unit.decimals)} ${symbol}` });
    return `${this.number(liters / unit.liters, unit.decimals)} ${symbol}`;
  }

  minutes(minutes: number): string {
    return `${this.number(minutes, 0)} min`;
  }

  /** A length of time from seconds: "45 s", "3 min", "2 h 5 min". */
  seconds(seconds: number): string {
    if (seconds < 120) return `${this.number(seconds, 0)} s`;
    const minutes = Math.round(seconds / 60);
    if (minutes < 120) return this.minutes(minutes);
    const rest = minutes % 60;
    return `${this.number(Math.floor(minutes / 60), 0)} h${rest ? ` ${rest} min` : ''}`;
  }

  /** The building's local date and time of an instant, or null when it cannot be read. */
  private local(iso: string): { date: string; time: string } | null {
    const at = Date.parse(iso);
    if (Number.isNaN(at)) return null;
    try {
      const [date = '', time = ''] = localDateTime(at, this.place.timezone).split('T');
      return { date, time };
    } catch {
      return null;
    }
  }

  /** "at 23:43" in the building's time zone; "on 11/24/2026 at 23:43" when not the day the alert opened. */
  when(iso: string): string | null {
    const local = this.local(iso);
    if (local === null) return null;
    const opened = this.local(this.openedAt);
    if (opened?.date === local.date) return this.text('at_time', { time: local.time });
    return this.text('on_date_at_time', { date: displayDate(local.date, this.language), time: local.time });
  }

  /**
   * "Tue 02:00" within a week before the alert opened, "11/17/2026 02:00" before that: when a
   * state began, in the building's time zone.
   */
  since(iso: string): string | null {
    const local = this.local(iso);
    const at = Date.parse(iso);
    if (local === null) return null;
    const opened = Date.parse(this.openedAt);
    if (Number.isNaN(opened) || opened - at >= 6 * 86_400_000 || at > opened)
      return `${displayDate(local.date, this.language)} ${local.time}`;
    const weekday = new Intl.DateTimeFormat(LOCALE[this.language], {
      weekday: 'short',
      timeZone: this.place.timezone,
    }).format(at);
    return `${weekday} ${local.time}`;
  }

  /** A flow in litres (gallons in a gallon building) a minute, from litres an hour: "0.4 L/min". */
  rate(litresPerHour: number): string {
    const gallons = this.place.volumeUnit === 'gallon' || this.place.volumeUnit === 'imperial_gallon';
    const unit = gallons ? UNIT[this.place.volumeUnit] : UNIT.liter;
    const perMinute = litresPerHour / 60 / unit.liters;
    const symbol = this.text(gallons ? `unit_${this.place.volumeUnit}` : 'unit_liter');
    return `${this.number(perMinute, perMinute < 0.1 ? 2 : 1)} ${symbol}/min`;
  }

  /** An estimate: two significant digits ("about 580 L"), in the building's unit. */
  roughVolume(liters: number): string {
    const unit = UNIT[this.place.volumeUnit] ?? UNIT.liter;
    const value = liters / unit.liters;
    if (value <= 0) return this.volume(0);
    const step = 10 ** (Math.floor(Math.log10(value)) - 1);
    return this.volume(Number((Math.round(value / step) * step).toPrecision(2)) * unit.liters);
  }

  money(amount: number, currency: string): string {
    return new Intl.NumberFormat(LOCALE[this.language], { style: 'currency', currency }).format(amount);
  }

  /** "11/24/2026" and "23:43" apart, for sentences that always say the date. */
  dateAndTime(iso: string): { date: string; time: string } | null {
    const local = this.local(iso);
    return local && { date: displayDate(local.date, this.language), time: local.time };
  }

  /** "11/24/2026 23:43": a date-time fact no sentence knows. */
  dateTime(iso: string): string | null {
    const at = Date.parse(iso);
    if (Number.isNaN(at)) return null;
    try {
      return displayLocalDateTime(at, this.place.timezone, this.language);
    } catch {
      return null;
    }
  }
}

/** The details a sentence is built from, read with their types checked. */
class Facts {
  private readonly used = new Set<string>();
  constructor(private readonly details: AlertFacts['details']) {}

  /** A number fact; a null one (no margin of that kind) counts as read, and answers null. */
  number(key: string): number | null {
    const value = this.details[key];
    if (value === null) this.used.add(key);
    if (typeof value !== 'number' || !Number.isFinite(value)) return null;
    this.used.add(key);
    return value;
  }

  /** A text fact; with `known`, only one of those values counts as read. */
  string(key: string, known?: readonly string[]): string | null {
    const value = this.details[key];
    if (typeof value !== 'string' || (known && !known.includes(value))) return null;
    this.used.add(key);
    return value;
  }

  /** A yes/no fact. */
  boolean(key: string): boolean | null {
    const value = this.details[key];
    if (typeof value !== 'boolean') return null;
    this.used.add(key);
    return value;
  }

  /** A key whose absence is part of the fact (a null "last seen": never heard). */
  isNull(key: string): boolean {
    if (!(key in this.details) || this.details[key] !== null) return false;
    this.used.add(key);
    return true;
  }

  /** The details no sentence used, for the fallback "key: value" list. */
  rest(): [string, AlertFacts['details'][string]][] {
    return Object.entries(this.details).filter(([key]) => !this.used.has(key));
  }
}

type Sentence = (w: Writer, f: Facts, alert: AlertFacts) => string | null;

/** "10.7 L in 4 min at 23:43" from an event's volume, duration and start; null when one is missing. */
function flowText(w: Writer, f: Facts): string | null {
  const volume = f.number('volume_l');
  // The flow's length to the second where it was kept (a burst passes a margin in seconds).
  const minutes = f.number('flow_minutes');
  const seconds = f.number('flow_s');
  const started = f.string('event_started_at');
  const when = started === null ? null : w.when(started);
  const length = seconds !== null ? w.seconds(seconds) : minutes !== null ? w.minutes(minutes) : null;
  if (volume === null || length === null || when === null) return null;
  // A flow seen in one reading has no length to tell: "< 0.1 L at 18:25", not "… in 0 s at 18:25".
  if (seconds !== null && Math.round(seconds) === 0)
    return w.text('flow_instant', { volume: w.volume(volume), when });
  return w.text('flow', { volume: w.volume(volume), minutes: length, when });
}

/** abnormal_water_consumption_*: the event, and the margin it went past (spec §4 automatic closing). */
const abnormalConsumption: Sentence = (w, f) => {
  const flow = flowText(w, f);
  if (flow === null) return null;
  const trigger = f.string('trigger', ['volume', 'duration']);
  const marginL = f.number('margin_volume_l');
  const marginMinutes = f.number('margin_minutes');
  const beyond =
    trigger === 'volume'
      ? marginL === null
        ? w.text('beyond_volume_unknown')
        : w.text('beyond_volume', { margin: w.volume(marginL) })
      : trigger === 'duration'
        ? marginMinutes === null
          ? w.text('beyond_duration_unknown')
          : w.text('beyond_duration', { margin: w.minutes(marginMinutes) })
        : null;
  const sentence = beyond === null ? flow : `${flow}, ${beyond}`;
  // An event that crossed and ended before its readings arrived (docs/automation.md "Whatever the delivery").
  if (f.string('reported', ['late']) === null) return sentence;
  const ended = f.string('event_ended_at');
  const when = ended === null ? null : w.when(ended);
  return `${sentence}${w.text('late_separator')}${when === null ? w.text('reported_late_unknown') : w.text('reported_late', { when })}`;
};

/**
 * Leak analytics (docs/automation.md "Leak analytics"): "No hour without water since Tue 02:00,
 * 0.4 L/min at night, about 580 L and €2.10 a day".
 */
function noFlowFreeHour(w: Writer, f: Facts): string | null {
  const started = f.string('flowing_since');
  const since = started === null ? null : w.since(started);
  if (since === null) return null;
  f.number('continuous_hours');
  const parts = [w.text('no_flow_free_hour', { since })];
  const night = f.number('night_flow_lph');
  if (night !== null) parts.push(w.text('at_night', { rate: w.rate(night) }));
  const loss = f.number('loss_l_per_day');
  const cost = f.number('loss_cost_per_day');
  const currency = f.string('currency', CURRENCIES);
  f.isNull('currency');
  if (loss !== null && loss > 0)
    parts.push(
      cost !== null && currency !== null
        ? w.text('loss_and_cost_a_day', { volume: w.roughVolume(loss), cost: w.money(cost, currency) })
        : w.text('loss_a_day', { volume: w.roughVolume(loss) }),
    );
  return parts.join(', ');
}

/**
 * Away mode (issue 33, docs/automation.md "Away mode"): "Water flowed while away mode was on (until
 * 01/03/2027 18:00): 0.5 L in 1 min at 14:02; the water was closed".
 */
function awayFlow(w: Writer, f: Facts): string | null {
  const flow = flowText(w, f);
  const until = f.string('away_until');
  const untilText = until === null ? null : w.dateTime(until);
  if (flow === null || untilText === null) return null;
  const sentence = w.text('away_flow', { until: untilText, flow });
  return f.boolean('closed') ? `${sentence}${w.text('late_separator')}${w.text('away_closed')}` : sentence;
}

const leakage: Sentence = (w, f, alert) => {
  if (alert.cause === 'away_flow') return awayFlow(w, f);
  if (alert.cause === 'no_flow_free_hour') return noFlowFreeHour(w, f);
  if (alert.cause === 'water_balance') return waterBalance(w, f);
  const flow = flowText(w, f);
  if (flow === null) return null;
  return w.text(alert.cause === 'leak_detection_mode' ? 'leak_mode' : 'leak_continuous', { flow });
};

/**
 * A building's night past the manager's threshold (docs/automation.md "Building water balance"):
 * "Night of 12/05/2026 (00:00–05:00): 40 L of the 150 L through the main supply reached no zone’s
 * meter (27 %), beyond the 35 L threshold".
 */
function waterBalance(w: Writer, f: Facts): string | null {
  const date = f.string('night');
  const unaccounted = f.number('unaccounted_l');
  const main = f.number('main_l');
  const share = f.number('share_pct');
  if (date === null || unaccounted === null || main === null || share === null) return null;
  const sentence = w.text('balance_night', {
    date: displayDate(date, w.language),
    volume: w.volume(unaccounted),
    main: w.volume(main),
    share: `${w.number(share, 0)} %`,
  });
  const liters = f.number('threshold_l');
  const pct = f.number('threshold_pct');
  const threshold = liters !== null ? w.volume(liters) : pct !== null ? `${w.number(pct, 0)} %` : null;
  return threshold === null ? sentence : `${sentence}, ${w.text('balance_beyond', { threshold })}`;
}

const dysfunction: Sentence = (w, f) => {
  if (f.string('autotest', ['failed'])) return w.text('autotest_failed');
  const command = f.string('command', ['valve_close', 'valve_open']);
  if (command === null) return null;
  const text = w.text(command === 'valve_close' ? 'valve_close_unconfirmed' : 'valve_open_unconfirmed');
  const locked = f.string('locked_at');
  const when = locked === null ? null : w.when(locked);
  return when === null ? text : `${text}, ${w.text('asked_at_lock', { when })}`;
};

function thresholdText(
  w: Writer,
  key: 'humidity' | 'temperature',
  value: number,
  threshold: number,
  unit: string,
): string {
  const side = value > threshold ? 'side_above' : value < threshold ? 'side_below' : 'side_at';
  return w.text(key, {
    value: `${w.number(value, 1)}${unit}`,
    threshold: `${w.number(threshold, 1)}${unit}`,
    side: w.text(side),
  });
}

/** docs/firmware.md "Alerts": a device's failed update, or a rollout that halted. */
function firmwareText(w: Writer, f: Facts): string | null {
  const version = f.string('version');
  if (version === null) return null;
  const halted = f.string('rollout_halted', ['failure_threshold', 'image_withdrawn']);
  const rollout = f.string('rollout');
  if (halted !== null && rollout !== null)
    return w.text(halted === 'image_withdrawn' ? 'rollout_image_withdrawn' : 'rollout_failure_threshold', {
      version,
      rollout,
    });
  const state = f.string('firmware_update');
  const key =
    state === 'failed'
      ? f.string('reason', ['rolled_back'])
        ? 'firmware_rolled_back'
        : 'firmware_failed'
      : state === 'invalid_naming'
        ? 'firmware_invalid_naming'
        : state === 'timeout'
          ? 'firmware_timeout'
          : state === 'block_download_failed'
            ? 'firmware_block_download_failed'
            : null;
  return key === null ? null : w.text(key, { version });
}

const internalStatus: Sentence = (w, f) => {
  const reboot = f.string('reboot', ['crash', 'watchdog']);
  if (reboot === 'crash') return w.text('reboot_crash');
  if (reboot === 'watchdog') return w.text('reboot_watchdog');
  const firmware = firmwareText(w, f);
  if (firmware !== null) return firmware;
  const humidity = f.number('humidity');
  const threshold = f.number('threshold');
  if (humidity !== null && threshold !== null) return thresholdText(w, 'humidity', humidity, threshold, ' %');
  const clock = f.string('clock', ['ahead', 'behind']);
  const skew = f.number('skew_s');
  const bound = f.number('bound_s');
  if ((clock === 'ahead' || clock === 'behind') && skew !== null && bound !== null)
    return w.text(clock === 'ahead' ? 'clock_ahead' : 'clock_behind', {
      skew: w.seconds(skew),
      bound: w.seconds(bound),
    });
  return null;
};

const waterTemperature: Sentence = (w, f) => {
  const temperature = f.number('temperature');
  const threshold = f.number('threshold');
  if (temperature !== null && threshold !== null)
    return thresholdText(w, 'temperature', temperature, threshold, ' °C');
  const device = f.string('device_water', ['hot', 'cold']);
  const zone = f.string('zone_water', ['hot', 'cold']);
  const kind = (water: string | null) =>
    water === 'hot' ? w.text('water_hot') : water === 'cold' ? w.text('water_cold') : null;
  const [deviceKind, zoneKind] = [kind(device), kind(zone)];
  if (deviceKind === null || zoneKind === null) return null;
  return w.text('water_mismatch', { device: deviceKind, zone: zoneKind });
};

const communication: Sentence = (w, f) => {
  if (f.isNull('last_seen_at')) return w.text('never_heard');
  const seen = f.string('last_seen_at');
  const at = seen === null ? null : w.dateAndTime(seen);
  return at === null ? null : w.text('silent_since', at);
};

const SENTENCES: Record<AlertCategory, Sentence> = {
  abnormal_water_consumption_no_ac: abnormalConsumption,
  abnormal_water_consumption_with_ac: abnormalConsumption,
  leakage_detection: leakage,
  flowbox_dysfunction: dysfunction,
  flowbox_internal_status: internalStatus,
  water_temperature: waterTemperature,
  flowbox_communication: communication,
  maintenance: (w) => w.text('maintenance'),
};

/** A fact no sentence knows, readable still: "valve position: 3", dates in the building's time. */
function factText(w: Writer, key: string, value: AlertFacts['details'][string]): string {
  const label = key.replaceAll('_', ' ');
  const shown =
    value === null
      ? w.text('none')
      : typeof value === 'boolean'
        ? w.text(value ? 'yes' : 'no')
        : typeof value === 'number'
          ? w.number(value, 3)
          : /^\d{4}-\d{2}-\d{2}T/.test(value)
            ? (w.dateTime(value) ?? value)
            : value.replaceAll('_', ' ');
  return `${label}: ${shown}`;
}

/**
 * The alert's details as a sentence, e.g. "10.7 L in 4 min at 23:43, beyond the 10 L margin";
 * details no sentence uses follow as "key: value". Empty when the alert has no details to tell.
 */
export function alertDetailsText(alert: AlertFacts, language: Language, place: AlertPlace): string {
  const w = new Writer(language, place, alert.opened_at);
  const facts = new Facts(alert.details ?? {});
  const sentence = (SENTENCES as Record<string, Sentence | undefined>)[alert.category];
  let main: string | null = null;
  try {
    main = sentence ? sentence(w, facts, alert) : null;
  } catch {
    main = null;
  }
  const rest = (main === null ? Object.entries(alert.details ?? {}) : facts.rest()).map(([key, value]) =>
    factText(w, key, value),
  );
  return [main, ...rest].filter((part) => part !== null && part !== '').join(' · ');
}
