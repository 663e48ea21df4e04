/**
 * Settings of every session the server opens on PostgreSQL (primary and replica). A parallel plan's workers took 3-20
 * ms to start here, more than the small queries the planner gave them took (a search of 277 companies: 1.2 ms alone,
 * 5.7-20 ms with a worker); ten times the default setup cost keeps parallel plans for queries that are big enough.
 */
export const SESSION_OPTIONS = '-c parallel_setup_cost=10000';
