-- War and Peace, the Grand Campaign: the states and their political status (D, G.1). Six
-- major states, each a seat; seventeen minor states in four groups. A state's status is
-- "pro" (pro-French), "anti" (anti-French) or "neutral" (a minor state not yet created,
-- "unformed"), kept in `ctx.vars.status`. A major state no player represents is run by the
-- French player while pro-French, else by the English player (J.2.i).

local util = include("@lib/util.lua")

local states = {}

states.MAJORS = { "FR", "EN", "RU", "AU", "PR", "SP" }

-- The unit kinds in the Force Pool Display's order: the land kinds, then the naval ones.
states.LAND = { "guard_cavalry", "guard_infantry", "cavalry", "infantry", "cossacks", "landwehr", "militia", "partisans" }
states.NAVAL_KINDS = { "squadrons", "transports" }
states.NAVAL = { squadrons = true, transports = true }
states.KINDS = { table.unpack(states.LAND) }
for _, kind in ipairs(states.NAVAL_KINDS) do
  states.KINDS[#states.KINDS + 1] = kind
end

-- The minor state groups of the Alliance Display (G.1.a), each with its states.
states.GROUPS = {
  { id = "western", name = "the Western Minor States", states = { "holland", "portugal" } },
  { id = "italian", name = "the Italian Minor States", states = { "north_italy", "naples", "dalmatia", "switzerland" } },
  { id = "german", name = "the German Minor States",
    states = { "bavaria", "brunswick", "hanover", "hesse", "rhine", "saxony", "westphalia", "wurtemburg" } },
  { id = "baltic", name = "the Baltic Minor States", states = { "denmark", "poland", "sweden" } },
}

states.MINOR_NAMES = {
  holland = "Holland", portugal = "Portugal", north_italy = "North Italy", naples = "Naples",
  dalmatia = "Dalmatia", switzerland = "Switzerland", bavaria = "Bavaria", brunswick = "Brunswick",
  hanover = "Hanover", hesse = "Hesse", rhine = "the Rhine Confederation", saxony = "Saxony",
  westphalia = "Westphalia", wurtemburg = "Wurtemburg", denmark = "Denmark", poland = "Poland",
  sweden = "Sweden",
}

states.STATUS_WORDS = { pro = "pro-French", anti = "anti-French", neutral = "neutral", unformed = "not yet created" }

-- The group of each minor state.
states.GROUP_OF = {}
for _, group in ipairs(states.GROUPS) do
  for _, minor in ipairs(group.states) do
    states.GROUP_OF[minor] = group
  end
end

--- Every state, majors first, then the minors group by group.
function states.all()
  local list = { table.unpack(states.MAJORS) }
  for _, group in ipairs(states.GROUPS) do
    for _, minor in ipairs(group.states) do
      list[#list + 1] = minor
    end
  end
  return list
end

function states.is_major(state)
  return states.GROUP_OF[state] == nil
end

--- A state's box of kind `what` ("pool" or "prisoners"): a major state's own, a minor
--- state's group's (J.1.b-c).
function states.box(state, what)
  local id = states.is_major(state) and state or states.GROUP_OF[state].id
  return what .. "." .. id
end

--- A state's name: a major state's seat name, a minor state's own.
function states.name(ctx, state)
  local group = state:match("^group:(.+)$")
  if group then
    for _, g in ipairs(states.GROUPS) do
      if g.id == group then
        return g.name
      end
    end
  end
  if states.is_major(state) then
    return ctx.data.seats[state].name
  end
  return states.MINOR_NAMES[state]
end

--- The names of `list`, joined ("France, Spain and Holland").
function states.names(ctx, list)
  return util.joined(util.map(list, function(s)
    return states.name(ctx, s)
  end), "none")
end

--- Whether a player represents major state `state`.
function states.played(ctx, state)
  return util.contains(ctx.vars.players, state)
end

--- The states of `list` whose political status is `status` ("pro", "anti"…), in the
--- list's order.
function states.with_status(ctx, list, status)
  return util.filter(list, function(state)
    return ctx.vars.status[state] == status
  end)
end

--- The seat that decides for `state` (J.2.i, G.1.f): its own player, else the French
--- player for a pro-French state and the English player for any other.
function states.voice(ctx, state)
  if states.is_major(state) and states.played(ctx, state) then
    return state
  end
  return ctx.vars.status[state] == "pro" and "FR" or "EN"
end

--- A minor state group's status (G.1.f): pro- or anti-French when all its states are; else
--- neutral.
function states.group_status(ctx, group)
  local first
  for _, minor in ipairs(group.states) do
    local status = ctx.vars.status[minor]
    if status ~= "pro" and status ~= "anti" then
      return "neutral"
    end
    if first and status ~= first then
      return "neutral"
    end
    first = status
  end
  return first or "neutral"
end

--- The Alliance Phase's modifier (G.1.g): -1 for each pro-French City Point, major state
--- and minor state group, +1 for each anti-French one, at most 4 either way; with the
--- English Production Points lent to the state rolled for (G.1.k), beyond that cap.
--- Returns the modifier and its reasons, as a list of words.
function states.alliance_modifier(ctx, lent)
  local pro, anti = ctx:counter("cp.pro"), ctx:counter("cp.anti")
  local pro_states, anti_states = 0, 0
  for _, major in ipairs(states.MAJORS) do
    local status = ctx.vars.status[major]
    pro_states = pro_states + (status == "pro" and 1 or 0)
    anti_states = anti_states + (status == "anti" and 1 or 0)
  end
  for _, group in ipairs(states.GROUPS) do
    local status = states.group_status(ctx, group)
    pro_states = pro_states + (status == "pro" and 1 or 0)
    anti_states = anti_states + (status == "anti" and 1 or 0)
  end
  local sum = anti + anti_states - pro - pro_states
  local cap = ctx.data.tables.alliance_limit.max
  local capped = math.max(-cap, math.min(cap, sum))
  local why = {}
  for _, term in ipairs({
    { -pro, "pro-French City Points" }, { -pro_states, "pro-French states and groups" },
    { anti, "anti-French City Points" }, { anti_states, "anti-French states and groups" },
  }) do
    if term[1] ~= 0 then
      why[#why + 1] = string.format("%+d for %s", term[1], term[2])
    end
  end
  if capped ~= sum then
    why[#why + 1] = string.format("%+d, capped at %+d", sum, capped)
  end
  if lent and lent > 0 then
    why[#why + 1] = string.format("+%d for the Production Points England lent", lent)
  end
  return capped + (lent or 0), why
end

return states
