// How the Worker reaches a user's UserHub: one Durable Object per user, named by user id.
export function userHub(env: Env, userId: string) {
  return env.USER_HUB.get(env.USER_HUB.idFromName(userId));
}
