import { randomBytes } from 'node:crypto';
import { businessDate } from '../../src/domain/business-calendar.ts';
import type { ProjectStatus } from '../../src/domain/project-status.ts';
import type { RoleName } from '../../src/domain/roles.ts';
import { nextRenewDate } from '../../src/domain/subscription.ts';
import type { Insertable } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { OrganizationsTable, UsersTable } from '../db/schema.ts';
import { hashSecret } from '../services/passwords.ts';
import { demoSeedRepo } from '../repositories/demo-seed.ts';
import { projectsRepo } from '../repositories/projects.ts';
import { seedBillingDemo } from '../billing/seed.ts';

export const DEMO_ORGANIZATION = 'Demo Studio';

export const DEMO_ACCOUNTS: { email: string; role: RoleName; firstName: string; lastName: string }[] = [
  { email: 'superadmin@demo.cutdesk.test', role: 'SUPERADMIN', firstName: 'Sam', lastName: 'Super' },
  { email: 'admin@demo.cutdesk.test', role: 'ADMIN', firstName: 'Alex', lastName: 'Admin' },
  { email: 'editor@demo.cutdesk.test', role: 'EDITOR', firstName: 'Eddie', lastName: 'Cutter' },
  { email: 'owner@demo.cutdesk.test', role: 'OWNER', firstName: 'Olivia', lastName: 'Owner' },
  { email: 'user@demo.cutdesk.test', role: 'USER', firstName: 'Umar', lastName: 'User' },
];

const DAY = 86_400_000;
/** Demo Studio's review period, which its projects take. */
const DEMO_REVIEW_PERIOD_DAYS = 7;
/** Dates in the business calendar (src/domain/business-calendar.ts), as the product reads them. */
const isoDate = (ms: number) => businessDate(ms);

const PROJECTS: { name: string; status: ProjectStatus; brief: string }[] = [
  { name: 'Spring launch teaser', status: 'OPENED', brief: 'A 30-second teaser for the spring collection, upbeat music, product close-ups.' },
  { name: 'Founder interview', status: 'OPENED', brief: 'Our founder tells how the company started. Calm, warm colour grade.' },
  { name: 'Customer story: Northwind', status: 'WAITING_FOR_EDITOR', brief: 'Case study with the Northwind team, interview plus office b-roll.' },
  { name: 'Product walkthrough', status: 'IN_EDITING', brief: 'Screen recording walkthrough of the new dashboard with voice-over.' },
  { name: 'Hiring video', status: 'PAUSED', brief: 'Meet the team: short clips from every department.' },
  { name: 'Quarterly highlights', status: 'IN_REVIEW', brief: 'Highlights of the quarter for the all-hands meeting.' },
  { name: 'Brand anthem', status: 'IN_REVIEW', brief: 'A one-minute brand film for the website hero section.' },
  { name: 'Conference recap', status: 'APPROVED', brief: 'Two-minute recap of our booth and talks at the conference.' },
  { name: 'Holiday greeting', status: 'ARCHIVED', brief: 'Holiday greeting from the whole team.' },
  { name: 'Old promo (removed)', status: 'HIDDEN', brief: 'Superseded promo, kept for reference.' },
];

/** True when the database has no users yet (a first start). */
export async function isEmpty(db: Db): Promise<boolean> {
  return demoSeedRepo(db).hasNoUsers();
}

/**
 * Demo data of issue 2: staff, the "Demo Studio" organization with an owner and a user,
 * active credits, a storage quota and projects in every status. Returns the password used, or
 * null when the database had users by the time the seed began: several instances started
 * together on one empty PostgreSQL database seed it once (the check and the rows are one
 * transaction under an advisory lock; the others wait for it and find the users).
 */
export async function seedDemo(db: Db, password: string | null, now = Date.now()): Promise<string | null> {
  const demoPassword = password ?? randomBytes(9).toString('base64url');
  // Hashed on libuv's threads while the transaction's first statements run (a first start waits
  // for the seed before it answers).
  const hashing = hashSecret(demoPassword);
  hashing.catch(() => undefined); // awaited below, or not needed when another instance seeded
  const seeded = await db.transaction().execute(async (tx) => {
    const rows = demoSeedRepo(tx);
    await rows.lockSeeding();
    if (!(await rows.hasNoUsers())) return false;
    const customers = otherCustomers(now);
    const demoStudio = {
      startDate: isoDate(now - 65 * DAY),
      endDate: isoDate(now + 300 * DAY),
      activeCredits: 10,
      creditsPerInterval: 10,
      intervalMonths: 1,
      renewable: true,
    };
    // In this order, so the ids are the ones the demo always had (Demo Studio's is 1).
    const organizationIds = await rows.insertOrganizations([
      {
        name: DEMO_ORGANIZATION,
        storageTb: 2,
        usedSpace: 0,
        statusId: 2,
        state: 'APPROVED',
        renewableAt: new Date(now + 300 * DAY),
        projectReviewPeriod: DEMO_REVIEW_PERIOD_DAYS,
        kitOrdered: true,
        kitType: 'Studio kit',
        kitOrderedAt: isoDate(now - 60 * DAY),
        assetsLink: 'https://drive.example.com/demo-studio',
        trackingCode: '1Z999AA10123456784',
        createdAt: new Date(now - 70 * DAY),
      },
      ...customers.map((customer) => customer.organization),
    ]);
    const organizationId = organizationIds.get(DEMO_ORGANIZATION)!;
    await rows.insertCredits([
      // The product's own rule (a whole number of months after the start), never a fixed offset
      // that drifts a day from it (issue 12: start Sep 18, renew Dec 17).
      { organizationId, ...demoStudio, usedCredits: 6, renewDate: nextRenewDate(demoStudio, isoDate(now)) },
      ...customers.map((customer) => ({
        organizationId: organizationIds.get(customer.organization.name)!,
        ...customer.credits,
        usedCredits: 0,
        renewDate: nextRenewDate(customer.credits, isoDate(now)),
      })),
    ]);
    const passwordHash = await hashing;
    const userIds = await rows.insertUsers([
      ...DEMO_ACCOUNTS.map((account) => ({
        ...account,
        passwordHash,
        phone: '5550100',
        organizationId: account.role === 'OWNER' || account.role === 'USER' ? organizationId : null,
        profilePictureUrl: null,
        assetsPath: null,
        deletedAt: null,
      })),
      ...customers.map((customer) => ({
        ...customer.owner,
        passwordHash,
        role: 'OWNER' as const,
        organizationId: organizationIds.get(customer.organization.name)!,
        profilePictureUrl: null,
        assetsPath: null,
        deletedAt: null,
        createdAt: customer.organization.createdAt ?? new Date(now),
      })),
      ...staffAndInvited(passwordHash, organizationId),
    ]);
    const accountId = (role: RoleName) => userIds.get(DEMO_ACCOUNTS.find((account) => account.role === role)!.email)!;
    await rows.insertProjects(
      PROJECTS.map((project, index) => {
        const submitted = project.status === 'OPENED' ? null : new Date(now - (index + 1) * 5 * 3_600_000);
        const running = project.status === 'IN_EDITING' || project.status === 'WAITING_FOR_EDITOR';
        const inReview = project.status === 'IN_REVIEW';
        return {
          organizationId,
          userId: accountId('OWNER'),
          editorId: project.status === 'OPENED' || project.status === 'WAITING_FOR_EDITOR' ? null : accountId('EDITOR'),
          name: project.name,
          brief: project.brief,
          audience: 'Customers and partners',
          goal: 'Awareness',
          finalVideoLength: '1-2 minutes',
          status: project.status,
          latestSubmittedAt: submitted,
          pausedAt: submitted && !running ? new Date(submitted.getTime() + 2 * 3_600_000) : null,
          reviewStartedAt: inReview ? new Date(now - DAY) : null,
          // Every project takes its organization's review period when it is created (as the
          // product does); a 0 would mean "never auto-complete" once it reaches review.
          reviewPeriod: DEMO_REVIEW_PERIOD_DAYS,
          noReviews: ['IN_REVIEW', 'APPROVED', 'ARCHIVED', 'HIDDEN'].includes(project.status) ? 1 : 0,
          versionReleased: ['IN_REVIEW', 'APPROVED', 'ARCHIVED', 'HIDDEN'].includes(project.status),
          reviewLink: inReview ? 'https://review.example.com/quarterly-highlights' : null,
          collaborationLink: null,
          assetsLink: null,
          editorAssetsLink: null,
          createdAt: new Date(now - (index + 2) * DAY),
          deletedAt: null,
        };
      }),
    );
    return true;
  });
  if (!seeded) return null;
  await projectsRepo(db).refreshSlaKeys();
  await seedBillingDemo(db);
  return demoPassword;
}

/**
 * More rows for the staff pages: an organization whose onboarding is in progress (with a
 * subscription, so its tracking code can be set), a trial organization (no subscription
 * yet), each with its owner.
 */
function otherCustomers(now: number) {
  const customers: {
    organization: Insertable<OrganizationsTable>;
    credits: {
      startDate: string | null;
      endDate: string | null;
      activeCredits: number;
      creditsPerInterval: number;
      intervalMonths: number;
      renewable: boolean;
    };
    owner: { email: string; firstName: string; lastName: string; phone: string };
  }[] = [
    {
      organization: {
        name: 'Northwind Media',
        statusId: 1,
        storageTb: 1,
        renewableAt: new Date(now + 350 * DAY),
        kitOrdered: true,
        kitType: 'Interview kit',
        kitOrderedAt: isoDate(now - 3 * DAY),
        createdAt: new Date(now - 15 * DAY),
      },
      credits: {
        startDate: isoDate(now - 15 * DAY),
        endDate: isoDate(now + 350 * DAY),
        activeCredits: 20,
        creditsPerInterval: 20,
        intervalMonths: 1,
        renewable: true,
      },
      owner: { email: 'nina@northwind.demo.cutdesk.test', firstName: 'Nina', lastName: 'North', phone: '5550142' },
    },
    {
      // Credits ending within 91 days: the expiry warnings show on the staff pages.
      organization: {
        name: 'Harbor Lights Co',
        statusId: 2,
        state: 'APPROVED',
        storageTb: 1,
        renewableAt: new Date(now + 40 * DAY),
        kitOrdered: true,
        kitType: 'Studio kit',
        kitOrderedAt: isoDate(now - 300 * DAY),
        createdAt: new Date(now - 325 * DAY),
      },
      credits: {
        startDate: isoDate(now - 325 * DAY),
        endDate: isoDate(now + 40 * DAY),
        activeCredits: 12,
        creditsPerInterval: 4,
        intervalMonths: 3,
        renewable: true,
      },
      owner: { email: 'hal@harborlights.demo.cutdesk.test', firstName: 'Hal', lastName: 'Harbor', phone: '5550188' },
    },
    {
      organization: {
        name: 'Blue Fern Bakery',
        statusId: 1,
        storageTb: 1,
        renewableAt: null,
        kitOrdered: false,
        kitType: null,
        kitOrderedAt: null,
        createdAt: new Date(now - 4 * DAY),
      },
      credits: { startDate: null, endDate: null, activeCredits: 0, creditsPerInterval: 0, intervalMonths: 1, renewable: false },
      owner: { email: 'bea@bluefern.demo.cutdesk.test', firstName: 'Bea', lastName: 'Fern', phone: '5550177' },
    },
  ];
  return customers;
}

/** A second editor, and an invited Demo Studio user who has not set a password yet. */
function staffAndInvited(passwordHash: string, demoStudioId: number): Insertable<UsersTable>[] {
  return [
    {
      email: 'priya@demo.cutdesk.test',
      firstName: 'Priya',
      lastName: 'Frames',
      phone: '15550123456',
      role: 'EDITOR',
      passwordHash,
      organizationId: null,
      profilePictureUrl: null,
      assetsPath: 'https://drive.example.com/priya',
      deletedAt: null,
    },
    {
      email: 'ivy@demo.cutdesk.test',
      firstName: 'Ivy',
      lastName: 'Invited',
      phone: '5550166',
      role: 'USER',
      passwordHash: null,
      organizationId: demoStudioId,
      profilePictureUrl: null,
      assetsPath: null,
      deletedAt: null,
    },
  ];
}
