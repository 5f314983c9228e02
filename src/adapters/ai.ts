/**
 * The AI helper port, shared by every feature that answers in natural language (the renter's booking
 * sidekick, the fleet concierge, and later the analytics insights, e-mail and post drafting).
 *
 * A caller hands over a request TYPE, the user's message, the FACTS the answer may use (the operator's
 * own data: availability, prices, policies; prices only ever come from there) and a deterministic
 * `fallback` built from the same facts. The port answers with:
 *
 * - **Workers AI** when the `AI` binding is configured (model `AI_MODEL`, default
 *   @cf/meta/llama-3.1-8b-instruct), instructed to use only the facts and to reply `CANNOT_ANSWER`
 *   otherwise. Its answer is checked before it is used: every amount of money in it must be one of the
 *   amounts in the facts, else the deterministic answer is given instead (a model never invents a
 *   price); an error, an empty answer or a timeout also falls back.
 * - **rules** otherwise (tests, `npm start`, deployments without the binding): the fallback itself.
 *
 * Either way the result says honestly when the question cannot be answered from the facts:
 * `status: 'cannot_answer'` with a reason and a helpful message (who to contact), never a guess.
 */
import type { Env } from '../env';

export type AiRequestType =
  'booking_sidekick' | 'fleet_concierge' | 'analytics_insight' | 'email_enhancement' | 'social_media_post' | 'business_audit' | 'operator_sidekick';

export interface AiTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface AiFact {
  /** What the value is, e.g. "Price of Pontoon 22". */
  label: string;
  value: string;
}

export type AiStatus = 'answered' | 'cannot_answer';

export interface AiResult {
  status: AiStatus;
  answer: string;
  /** Why it cannot be answered (`not_in_facts`, `out_of_scope`, ...); null when answered. */
  reason: string | null;
  /** `model` when Workers AI wrote the answer, `rules` when the deterministic rules did. */
  source: 'model' | 'rules';
  model: string | null;
  /** What the answer is about, as the rules classified the question (e.g. `price`, `time`). */
  topics: string[];
}

export interface AiRequest {
  type: AiRequestType;
  message: string;
  history?: AiTurn[];
  facts: AiFact[];
  /** Extra instructions of the caller: audience, tone, what to leave out. */
  instructions?: string;
  /** The deterministic answer from the same facts (the offline default and the fallback of a refused model answer). */
  fallback: () => AiResult | Promise<AiResult>;
  /** `short` (default): two or three sentences. `long`: a whole text (an e-mail, a post, a report), up to about 600 words. */
  length?: 'short' | 'long';
}

/**
 * Reading an image (a receipt, a licence, a check-in photo): Workers AI vision when the binding is
 * configured (model `AI_VISION_MODEL`, default @cf/meta/llama-3.2-11b-vision-instruct), asked for
 * JSON; without it the answer is honestly `not_analysed` (no image is ever guessed at).
 */
export interface AiVisionRequest {
  /** What to read, and the JSON shape to answer in. */
  prompt: string;
  image: Uint8Array;
}

export type AiVisionResult =
  | { status: 'analysed'; text: string; json: unknown; source: 'model'; model: string }
  | {
      status: 'not_analysed';
      reason: 'no_vision_model' | 'model_error' | 'unreadable_answer';
      message: string;
      source: 'rules' | 'model';
      model: string | null;
    };

export const DEFAULT_AI_VISION_MODEL = '@cf/meta/llama-3.2-11b-vision-instruct';
const NO_VISION: AiVisionResult = {
  status: 'not_analysed',
  reason: 'no_vision_model',
  message: 'Images are read by Workers AI vision, which this deployment has not configured (the AI binding); nothing was read from the image.',
  source: 'rules',
  model: null,
};

/** The first JSON object or array in a model's answer (models wrap JSON in prose or code fences). */
export function jsonIn(text: string): unknown {
  const start = text.search(/[[{]/);
  if (start < 0) return undefined;
  for (let end = text.length; end > start; end--) {
    const c = text[end - 1];
    if (c !== '}' && c !== ']') continue;
    try {
      return JSON.parse(text.slice(start, end));
    } catch {
      // a shorter slice may parse
    }
  }
  return undefined;
}

export interface AiPort {
  readonly mode: 'workers_ai' | 'rules';
  answer(req: AiRequest): Promise<AiResult>;
  /** Reads an image (see AiVisionRequest). */
  see(req: AiVisionRequest): Promise<AiVisionResult>;
}

export const DEFAULT_AI_MODEL = '@cf/meta/llama-3.1-8b-instruct';
const CANNOT = 'CANNOT_ANSWER';
const TIMEOUT_MS = 8_000;

export const answered = (answer: string, topics: string[]): AiResult => ({ status: 'answered', answer, reason: null, source: 'rules', model: null, topics });
export const cannotAnswer = (answer: string, reason: string, topics: string[] = []): AiResult => ({
  status: 'cannot_answer',
  answer,
  reason,
  source: 'rules',
  model: null,
  topics,
});

/** Money amounts written in a text (`$1,234.50`, `1234.5 USD`, `€ 45`, `45 EUR`), as cents. */
export function moneyAmounts(text: string): number[] {
  const out: number[] = [];
  const num = String.raw`(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?`;
  const patterns = [new RegExp(String.raw`[$€£]\s?${num}`, 'g'), new RegExp(String.raw`${num}\s?(?:USD|EUR|GBP|CAD|AUD|dollars?|euros?)\b`, 'gi')];
  for (const re of patterns) {
    for (const m of text.matchAll(re)) out.push(Number(m[1].replace(/,/g, '')) * 100 + Number((m[2] ?? '0').padEnd(2, '0')));
  }
  return out;
}

/** The model's answer may only state amounts that the facts state. */
export function pricesGrounded(answer: string, facts: AiFact[]): boolean {
  const known = new Set(facts.flatMap((f) => [...moneyAmounts(f.value), ...moneyAmounts(`$${f.value}`)]));
  return moneyAmounts(answer).every((a) => known.has(a));
}

class RulesAi implements AiPort {
  readonly mode = 'rules' as const;
  async answer(req: AiRequest): Promise<AiResult> {
    return req.fallback();
  }
  async see(): Promise<AiVisionResult> {
    return NO_VISION;
  }
}

const SYSTEM: Record<AiRequestType, string> = {
  booking_sidekick: 'You help a renter with questions about their own booking at a rental business (boats, tours).',
  fleet_concierge: "You help a visitor choose among a rental business's boats and tours and their availability.",
  analytics_insight: 'You explain the numbers of a rental business to its owner.',
  email_enhancement: 'You improve the wording of an e-mail of a rental business to its customers.',
  social_media_post: 'You write a short social media post for a rental business.',
  business_audit: 'You review the online presence of a rental business.',
  operator_sidekick: "You answer a rental business owner's questions about the bookings given to you.",
};

class WorkersAi implements AiPort {
  readonly mode = 'workers_ai' as const;
  constructor(
    private readonly binding: Ai,
    private readonly model: string,
    private readonly visionModel: string = DEFAULT_AI_VISION_MODEL,
  ) {}

  async see(req: AiVisionRequest): Promise<AiVisionResult> {
    let text = '';
    try {
      const run = this.binding.run(
        this.visionModel as keyof AiModels,
        {
          prompt: `${req.prompt}\nAnswer with JSON only. Use null for anything you cannot read; never guess.`,
          image: Array.from(req.image),
          max_tokens: 512,
        } as never,
      ) as Promise<{ response?: string; description?: string }>;
      const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), TIMEOUT_MS * 2));
      const out = await Promise.race([run, timeout]);
      text = (out && typeof (out.response ?? out.description) === 'string' ? String(out.response ?? out.description) : '').trim();
    } catch {
      return { status: 'not_analysed', reason: 'model_error', message: 'The vision model did not answer.', source: 'model', model: this.visionModel };
    }
    const json = text ? jsonIn(text) : undefined;
    if (json === undefined)
      return {
        status: 'not_analysed',
        reason: 'unreadable_answer',
        message: 'The vision model gave no readable answer.',
        source: 'model',
        model: this.visionModel,
      };
    return { status: 'analysed', text, json, source: 'model', model: this.visionModel };
  }

  async answer(req: AiRequest): Promise<AiResult> {
    const facts = req.facts.map((f) => `- ${f.label}: ${f.value}`).join('\n');
    const system = [
      SYSTEM[req.type],
      req.length === 'long'
        ? 'Answer with the whole text asked for (at most about 600 words), in the language of the request.'
        : 'Answer in two or three short sentences, in the language of the question.',
      'Use ONLY the facts below. Never state a price, amount, date, time or policy that is not in the facts; never guess.',
      `If the facts do not answer the question, reply exactly ${CANNOT}.`,
      req.instructions ?? '',
      `Facts:\n${facts || '- (none)'}`,
    ]
      .filter(Boolean)
      .join('\n');
    const messages = [
      { role: 'system', content: system },
      ...(req.history ?? []).slice(-10).map((t) => ({ role: t.role, content: t.content.slice(0, 2000) })),
      { role: 'user', content: req.message.slice(0, 2000) },
    ];
    let text = '';
    try {
      const run = this.binding.run(this.model as keyof AiModels, { messages, max_tokens: req.length === 'long' ? 900 : 300 } as never) as Promise<{
        response?: string;
      }>;
      const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), TIMEOUT_MS));
      const out = await Promise.race([run, timeout]);
      text = (out && typeof out.response === 'string' ? out.response : '').trim();
    } catch {
      text = '';
    }
    const fallback = await req.fallback();
    if (!text) return fallback;
    // The model found nothing in the facts: the rules' answer stands (an answer from the same facts, or their honest refusal).
    if (text.includes(CANNOT)) return fallback;
    // The guard: a model answer that states an amount the facts do not is replaced by the rules' answer.
    if (!pricesGrounded(text, req.facts)) return fallback;
    return { status: 'answered', answer: text, reason: null, source: 'model', model: this.model, topics: fallback.topics };
  }
}

/** Workers AI when the binding is configured, else the deterministic rules. */
export function ai(env: Env): AiPort {
  return env.AI ? new WorkersAi(env.AI, env.AI_MODEL || DEFAULT_AI_MODEL, env.AI_VISION_MODEL || DEFAULT_AI_VISION_MODEL) : new RulesAi();
}

/** For tests: a port over any object with Workers AI's `run`. */
export function workersAiFor(binding: Pick<Ai, 'run'>, model = DEFAULT_AI_MODEL, visionModel = DEFAULT_AI_VISION_MODEL): AiPort {
  return new WorkersAi(binding as Ai, model, visionModel);
}
