import { SUPPORT_EMAIL } from '@/ui/constants.ts';

const STEPS = [
  {
    title: 'Credits every month',
    body: 'Your plan adds its credits at the start of every month of the 12-month term. Unused credits carry over to the next month until the term ends.',
  },
  {
    title: 'One credit per video',
    body: 'Write a short brief, upload your interview clips, b-roll and images, and send the project to editing. Sending it uses one credit.',
  },
  {
    title: 'Your first cut in 48 business hours',
    body: 'Our editors deliver the first version within 48 business hours (weekends do not count). Request changes or approve it; a change request uses no extra credit.',
  },
];

/** Only what the product does (C§1, C§6, docs/decisions.md "Subscriptions and billing"). */
const FAQ = [
  {
    q: 'Who can subscribe?',
    a: 'The owner of the organization buys and manages the subscription, in Admin Settings. Everyone in the organization sends projects with its credits; users ask their owner to subscribe.',
  },
  {
    q: 'How am I billed?',
    a: 'Plans run for 12 months and are paid by card for the whole year up front; the price per month shows what that comes to each month. The plan renews every year at its yearly price.',
  },
  {
    q: 'What happens to credits I do not use?',
    a: 'They stay available from month to month for the rest of your 12-month term and expire when the term ends. A renewed term starts with its first month of credits.',
  },
  {
    q: 'Do changes cost another credit?',
    a: 'No. A credit pays for the video: requesting changes on a version uses no extra credit, and the revised version again comes within 48 business hours.',
  },
  {
    q: 'What is the onboarding kit?',
    a: 'Your first subscription ships the kit named on your plan to the shipping address you enter at checkout. It is sent once per organization.',
  },
  {
    q: 'Can I cancel?',
    a: 'Yes, at any time in Admin Settings. Your plan then stops renewing: credits and storage stay until the end of the term you paid for. Payments already made are not refunded.',
  },
  {
    q: 'What counts toward my storage?',
    a: "The interview clips, b-roll and images you upload. An upload that would go over your plan's storage is refused; deleting the footage of finished projects frees the space again.",
  },
  {
    q: 'I have a coupon code.',
    a: 'Enter it at checkout. It takes its discount off the first year, once per organization.',
  },
];

export function HowItWorks() {
  return (
    <section className="pricing-section" aria-labelledby="how-it-works">
      <h2 id="how-it-works" className="pricing-section-title">
        How it works
      </h2>
      <ol className="pricing-steps">
        {STEPS.map((step, index) => (
          <li key={step.title} className="pricing-step">
            <span className="pricing-step-number" aria-hidden>
              {index + 1}
            </span>
            <h3>{step.title}</h3>
            <p>{step.body}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

export function PricingFaq() {
  return (
    <section className="pricing-section" aria-labelledby="pricing-faq">
      <h2 id="pricing-faq" className="pricing-section-title">
        Questions
      </h2>
      <dl className="pricing-faq">
        {FAQ.map((item) => (
          <div key={item.q} className="pricing-faq-item">
            <dt>{item.q}</dt>
            <dd>{item.a}</dd>
          </div>
        ))}
      </dl>
      <p className="pricing-contact">
        Something else? Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
      </p>
    </section>
  );
}
