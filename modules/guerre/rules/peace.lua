-- La Guerre de l'Empereur: the Peace Step (5.1-5.14). A Negotiated Peace offered by a
-- power to an enemy (a Controlled NPC must accept; a Player Country or an Allied NPC's
-- player answers), with its cancel window, after which the other allies may make their
-- own offer to the same enemy; those at peace while their allies fight on leave the
-- alliance and pay 5 VP (5.22). A Surrender to every enemy at once: 5 VP lost, the wars
-- over, an Enforced Peace for three Combat Seasons (5.14) and the Surrender Terms (5.124):
-- one victor chooses a group and the loser lets him have it or gives him both of the
-- others; several victors choose a group each, in the order the loser gives, three at
-- most. Provinces, units and repatriation are moved on the map; the module keeps the VP,
-- the gold, the Free Passage and the Enforced Peace. Both are procedures in the rules'
-- order (@lib/steps.lua); each decision is a state that hands its answer back to them.

local util = include("@lib/util.lua")
local cancel = include("rules/cancel.lua")
local powers = include("rules/powers.lua")
local steps = include("@lib/steps.lua")
local ask = include("rules/ask.lua")

local peace = {}

peace.SURRENDER_VP, peace.TERM_VP, peace.TERM_GOLD = 5, 5, 10

local name = powers.name

-- The three groups of Surrender Terms (5.124), two terms each.
peace.GROUPS = { { "passage", "vp" }, { "province", "vp" }, { "gold", "units" } }

peace.TERMS = {
  passage = "Free Passage through the loser's country for a year (5.126)",
  vp = "5 VP from the loser",
  province = "a province, chosen by the loser (5.125)",
  gold = "10 gold from the loser",
  units = "three infantry and one cavalry division from the loser's force (to his Force Pool, and the winner's from his)",
}

peace.voice = powers.voice

--- The peace offers and surrenders open to the phasing `power` (its own, and those of its
--- allied NPCs; a Controlled NPC in its own turn may surrender), as a Player Turn's actions.
function peace.actions(ctx, power)
  local own = ctx.vars.pcs_set[power] and powers.npc_allies(ctx, power) or {}
  table.insert(own, 1, power)
  local actions = {}
  for _, side in ipairs(own) do
    local enemies = powers.enemies(ctx, side)
    if ctx.vars.pcs_set[power] then
      for _, enemy in ipairs(enemies) do
        if ctx.vars.cancelled["peace:" .. powers.pair(side, enemy)] ~= ctx:turn() then
          actions[#actions + 1] = {
            name = "offer_peace",
            arg = side .. ">" .. enemy,
            label = side == power and string.format("Offer a Negotiated Peace to %s (5.11)", name(ctx, enemy))
              or string.format("Offer a Negotiated Peace for %s to %s (5.11)", name(ctx, side), name(ctx, enemy)),
          }
        end
      end
    end
    if #enemies > 0 then
      actions[#actions + 1] = {
        name = "surrender",
        arg = side,
        label = string.format("%s surrenders to %s (5.12)", name(ctx, side), powers.names(ctx, enemies)),
        confirm = string.format("%s loses the war to %s and pays 5 VP and the Surrender Terms.", name(ctx, side), powers.names(ctx, enemies)),
      }
    end
  end
  return actions
end

peace.states = {}

--- `from` offers a Negotiated Peace to `to`; the caller's `on_resume` gets nothing back.
function peace.offer(ctx, from, to)
  ctx:call("negotiation", { from = from, to = to, made = {} })
end

-- Peace is made between the offering power (`from`) and `to`: the war ends, with an
-- Enforced Peace (5.14).
local function made(ctx)
  local l = ctx.locals
  powers.end_war(ctx, l.from, l.to, true)
  powers.settle_npc(ctx, l.from)
  powers.settle_npc(ctx, l.to)
  l.made[#l.made + 1] = { l.from, l.to }
  l.made[#l.made + 1] = { l.to, l.from }
  ctx:log(string.format("%s and %s make peace: an Enforced Peace holds to the end of %s (5.14).",
    name(ctx, l.from), name(ctx, l.to), powers.season_name(ctx.vars.peace[powers.pair(l.from, l.to)])))
end

-- The offer of `from` (the locals') to `to`, put to the player who answers for `to`.
local function put(ctx)
  local l = ctx.locals
  return steps.call("peace_answer", { from = l.from, to = l.to })
end

-- The answer to an offer, then the cancel window's once it is accepted (4.62): peace is
-- made, or the war goes on. (A cancelled peace may not be offered again this Season.)
local function answered(ctx, result)
  local l = ctx.locals
  if result.accepted then
    local words = string.format("%s and %s make peace", name(ctx, l.from), name(ctx, l.to))
    local window = cancel.window(ctx, words, { peace.voice(ctx, l.from), peace.voice(ctx, l.to) })
    if window then
      return window
    end
    made(ctx)
  elseif result.accepted == false then
    ctx:log(string.format("%s rejects the offer: the war goes on.", name(ctx, l.to)))
  elseif result.cancelled then
    ctx.vars.cancelled["peace:" .. powers.pair(l.from, l.to)] = ctx:turn()
  else
    made(ctx)
  end
end

-- The offer's chain is over: those who made peace while an ally of theirs fights on leave
-- the alliance and pay 5 VP (5.11, 5.22).
local function settle(ctx)
  local l = ctx.locals
  for _, pair in ipairs(l.made) do
    local power, other = pair[1], pair[2]
    local fighting = util.filter(powers.pc_allies(ctx, power), function(ally)
      return powers.at_war(ctx, ally, other)
    end)
    if #fighting > 0 and ctx.vars.league[power] then
      powers.leave(ctx, power)
      local vp = ctx:add_counter("vp." .. power, -powers.BREAK_VP)
      ctx:log(string.format("%s is at peace with %s while %s fights on: it leaves the alliance and pays %d VP (%d VP) (5.22).",
        name(ctx, power), name(ctx, other), powers.names(ctx, fighting), powers.BREAK_VP, vp))
    end
  end
end

-- The Offer Negotiated Peace Step (5.11): the offer and its answer; then each ally of the
-- offering power (a Player Country) still at war with the same enemy may make its own
-- offer, in the powers' order; then the alliances of those at peace while an ally fights
-- on are broken (5.22).
peace.states.negotiation = steps.procedure("5.11 Offer Negotiated Peace", {
  {
    name = "5.11 The offer, and its answer",
    calls = { "peace_answer", "cancel_window" },
    run = function(ctx)
      local l = ctx.locals
      ctx:log(string.format("%s offers %s a Negotiated Peace (5.11).", name(ctx, l.from), name(ctx, l.to)))
      return put(ctx)
    end,
    resume = answered,
  },
  {
    name = "5.11 Each ally still at war may make its own offer",
    each = function(ctx)
      return powers.pc_allies(ctx, ctx.locals.from)
    end,
    skip = function(ctx, ally)
      return not powers.at_war(ctx, ally, ctx.locals.to)
    end,
    label = name,
    calls = { "peace_also", "peace_answer", "cancel_window" },
    run = function(ctx, ally)
      local l = ctx.locals
      return steps.call("peace_also", { from = l.from, to = l.to, ally = ally })
    end,
    resume = function(ctx, result, ally)
      local l = ctx.locals
      if result.offer then
        l.from = ally
        ctx:log(string.format("%s offers %s a Negotiated Peace as well (5.11).", name(ctx, l.from), name(ctx, l.to)))
        return put(ctx)
      elseif result.offer == nil then
        return answered(ctx, result)
      end
    end,
  },
  { name = "5.22 Those at peace while an ally fights on leave the alliance", run = settle },
})

-- 5.11: the offer put to the player who answers for `to`: a Controlled NPC must accept; it
-- hands back whether it accepts.
local answer = {}
peace.states.peace_answer = answer

function answer.prompt(ctx)
  local l = ctx.locals
  if ctx.vars.npc[l.to] == "controlled" then
    -- A Controlled NPC must accept (5.11): its controller confirms it.
    return {
      seat = peace.voice(ctx, l.to),
      text = string.format("5.11 %s, a Controlled NPC, must accept %s's offer of peace", name(ctx, l.to), name(ctx, l.from)),
      actions = { { name = "accept", label = "Accept (it must)" } },
    }
  end
  return {
    seat = peace.voice(ctx, l.to),
    text = string.format("5.11 %s offers %s a Negotiated Peace (on the terms agreed at the table)", name(ctx, l.from), name(ctx, l.to)),
    actions = {
      { name = "accept", label = "Accept: the war ends" },
      { name = "reject", label = "Reject" },
    },
  }
end

answer.accept = ask.result({ accepted = true })
answer.reject = ask.result({ accepted = false })

-- 5.11: an ally of the offering power, at war with the same enemy, may make its own offer;
-- it hands back whether it does.
peace.states.peace_also = ask.question(function(ctx)
  local l = ctx.locals
  return string.format("5.11 %s has offered %s peace: %s may make its own offer to %s", name(ctx, l.from), name(ctx, l.to), name(ctx, l.ally), name(ctx, l.to))
end, function(ctx)
  return {
    { name = "offer", label = string.format("Offer %s a Negotiated Peace", name(ctx, ctx.locals.to)) },
    { name = "no_offer", label = "No offer" },
  }
end, { offer = ask.result({ offer = true }), no_offer = ask.result({ offer = false }) }, function(ctx)
  return ctx.locals.ally
end)

--- `loser` surrenders to all its enemies (5.12-5.123); the Surrender Terms follow.
function peace.surrender(ctx, loser)
  local enemies = powers.enemies(ctx, loser)
  for _, enemy in ipairs(enemies) do
    powers.end_war(ctx, loser, enemy, true)
  end
  local vp = ""
  if ctx.vars.pcs_set[loser] then
    vp = string.format(", pays %d VP (%d VP)", peace.SURRENDER_VP, ctx:add_counter("vp." .. loser, -peace.SURRENDER_VP))
  end
  ctx:log(string.format("%s surrenders to %s%s; an Enforced Peace holds to the end of %s (5.123, 5.14). At the table: "
    .. "its provinces abroad and remapable home provinces are lost, its forces abroad repatriated (5.123, 5.127).",
    name(ctx, loser), powers.names(ctx, enemies), vp, powers.season_name(powers.season_index(ctx) + 3)))
  -- An alliance whose other members fight on against a power it now has an Enforced Peace
  -- with is broken, at no further cost (5.14, 5.22).
  if ctx.vars.pcs_set[loser] then
    for _, ally in ipairs(powers.pc_allies(ctx, loser)) do
      for _, enemy in ipairs(enemies) do
        if powers.at_war(ctx, ally, enemy) and ctx.vars.league[loser] then
          powers.leave(ctx, loser)
          ctx:log(string.format("%s's alliance with %s is broken: they fight on against %s (5.22).", name(ctx, loser), name(ctx, ally), name(ctx, enemy)))
        end
      end
    end
  elseif ctx.vars.npc_ally[loser] then
    local ally = ctx.vars.npc_ally[loser]
    for _, enemy in ipairs(enemies) do
      if powers.at_war(ctx, ally, enemy) and ctx.vars.npc_ally[loser] then
        powers.drop_npc(ctx, ally, loser)
        ctx:log(string.format("%s's alliance with %s is broken: %s fights on against %s (5.14, 5.23); %s is %s.",
          name(ctx, ally), name(ctx, loser), name(ctx, ally), name(ctx, enemy), name(ctx, loser), ctx.vars.npc[loser]))
      end
    end
  end
  powers.settle_npc(ctx, loser)
  for _, enemy in ipairs(enemies) do
    powers.settle_npc(ctx, enemy)
  end
  local winners = powers.players(ctx, enemies)
  if #winners == 0 then
    return
  end
  ctx:call("surrender_terms", { loser = loser, winners = winners, order = {}, used = {} })
end

-- Whether the loser can pay a term: the gold only if it has 10 (5.124: else the units).
local function payable(ctx, loser, term)
  return term ~= "gold" or ctx:counter("gold." .. loser) >= peace.TERM_GOLD
end

-- The groups other than `group`, in order.
local function other_groups(group)
  local list = {}
  for g = 1, #peace.GROUPS do
    if g ~= group then
      list[#list + 1] = g
    end
  end
  return list
end

-- The term's effect: the VP and gold change hands; Free Passage is kept for a year; a
-- province or the units are moved at the table.
local function apply(ctx, loser, winner, term)
  local words
  if term == "vp" then
    if ctx.vars.pcs_set[loser] then
      ctx:add_counter("vp." .. loser, -peace.TERM_VP)
    end
    ctx:add_counter("vp." .. winner, peace.TERM_VP)
    words = string.format("%d VP from %s", peace.TERM_VP, name(ctx, loser))
  elseif term == "gold" then
    ctx:add_counter("gold." .. loser, -peace.TERM_GOLD)
    ctx:add_counter("gold." .. winner, peace.TERM_GOLD)
    words = string.format("%d gold from %s", peace.TERM_GOLD, name(ctx, loser))
  elseif term == "passage" then
    ctx.vars.passage[loser .. ">" .. winner] = powers.season_index(ctx) + 3
    words = string.format("Free Passage through %s to the end of %s", name(ctx, loser), powers.season_name(powers.season_index(ctx) + 3))
  elseif term == "province" then
    words = string.format("a province %s cedes at the table (5.125)", name(ctx, loser))
  else
    words = string.format("three infantry and one cavalry division of %s's, moved at the table (5.124)", name(ctx, loser))
  end
  ctx:log(string.format("%s takes %s.", name(ctx, winner), words))
end

-- Whether a single victor takes the terms (else several, in the order the loser gives).
local function one_victor(ctx)
  return #ctx.locals.winners == 1
end

-- The loser names the next victor to choose, until all are named.
local function next_in_order(ctx)
  local l = ctx.locals
  return steps.call("surrender_order", { loser = l.loser, winners = l.winners, order = l.order })
end

-- The Surrender Terms (5.124), then each victor's VP for the home provinces it evacuates
-- (5.128). One victor chooses a group; the loser lets it take one term of that group, or
-- gives it one term of each of the other two. Several victors take a term each, from a
-- group not yet taken, in the order the loser gives: three at most.
peace.states.surrender_terms = steps.procedure("5.124 Surrender Terms", {
  {
    name = "5.124 One victor chooses a group",
    calls = "surrender_group",
    run = function(ctx)
      local l = ctx.locals
      if one_victor(ctx) then
        return steps.call("surrender_group", { loser = l.loser, winner = l.winners[1] })
      end
    end,
    resume = function(ctx, g)
      local l = ctx.locals
      l.group = g
      ctx:log(string.format("%s chooses group %d of the Surrender Terms.", name(ctx, l.winners[1]), g))
    end,
  },
  {
    name = "5.124 The loser lets it have that group, or gives it the other two",
    calls = "surrender_answer",
    run = function(ctx)
      local l = ctx.locals
      if one_victor(ctx) then
        return steps.call("surrender_answer", { loser = l.loser, winner = l.winners[1], group = l.group })
      end
    end,
    resume = function(ctx, kept)
      local l = ctx.locals
      if kept then
        l.groups = { l.group }
        ctx:log(string.format("%s lets %s have a term of group %d.", name(ctx, l.loser), name(ctx, l.winners[1]), l.group))
      else
        l.groups = other_groups(l.group)
        ctx:log(string.format("%s refuses: %s has a term of each of groups %d and %d.", name(ctx, l.loser), name(ctx, l.winners[1]), l.groups[1], l.groups[2]))
      end
    end,
  },
  {
    name = "5.124 The victor's term in each group it has",
    each = steps.listed("groups"),
    calls = "surrender_term",
    run = function(ctx, g)
      local l = ctx.locals
      local winner = l.winners[1]
      return steps.call("surrender_term", { loser = l.loser, winner = winner, groups = { g },
        text = string.format("5.124 %s's term from %s in group %d", name(ctx, winner), name(ctx, l.loser), g) })
    end,
    resume = function(ctx, chosen)
      apply(ctx, ctx.locals.loser, ctx.locals.winners[1], chosen.term)
    end,
  },
  {
    name = "5.124 Several victors: the loser gives the order in which they choose",
    calls = "surrender_order",
    run = function(ctx)
      if not one_victor(ctx) then
        return next_in_order(ctx)
      end
    end,
    resume = function(ctx, winner)
      local l = ctx.locals
      l.order[#l.order + 1] = winner
      if #l.order < #l.winners then
        return next_in_order(ctx)
      end
      local beyond = { table.unpack(l.order, 4) }
      if #beyond > 0 then
        ctx:log(string.format("%s gain%s no Surrender Term: three groups only (5.124).", powers.names(ctx, beyond), #beyond == 1 and "s" or ""))
      end
    end,
  },
  {
    name = "5.124 Each of the first three takes a term from a group not yet taken",
    each = function(ctx)
      return { table.unpack(ctx.locals.order, 1, math.min(3, #ctx.locals.order)) }
    end,
    label = name,
    calls = "surrender_term",
    run = function(ctx, winner)
      local l = ctx.locals
      local groups = {}
      for g = 1, #peace.GROUPS do
        if not util.contains(l.used, g) then
          groups[#groups + 1] = g
        end
      end
      return steps.call("surrender_term", { loser = l.loser, winner = winner, groups = groups,
        text = string.format("5.124 %s's term from %s: one term from a group not yet chosen", name(ctx, winner), name(ctx, l.loser)) })
    end,
    -- The groups taken, as a list in order (a set keyed by group number would have holes:
    -- plain data keeps lists whole).
    resume = function(ctx, chosen, winner)
      local l = ctx.locals
      apply(ctx, l.loser, winner, chosen.term)
      l.used[#l.used + 1] = chosen.group
    end,
  },
  {
    name = "5.128 Victory Points for the home provinces each victor evacuates",
    each = steps.listed("winners"),
    label = name,
    calls = "evacuation",
    run = function(ctx, winner)
      ctx.locals.evacuated = 0
      return steps.call("evacuation", { loser = ctx.locals.loser, winner = winner, evacuated = 0 })
    end,
    -- 5.128 (L1567-L1574): a home province evacuated gives its Political Value in VP, and
    -- at least 1 (the text's example: a province of Political Value 0 gives 1).
    resume = function(ctx, value, winner)
      local l = ctx.locals
      if value == nil then
        return
      end
      local vp = math.max(value, 1)
      l.evacuated = l.evacuated + 1
      ctx:add_counter("vp." .. winner, vp)
      ctx:log(string.format("%s evacuates a home province of %s, of Political Value %d: %d VP (5.128%s).", name(ctx, winner),
        name(ctx, l.loser), value, vp, value < 1 and ", 1 at least" or ""))
      return steps.call("evacuation", { loser = l.loser, winner = winner, evacuated = l.evacuated })
    end,
  },
})

-- The Surrender Terms' questions are put to the victor in the locals (`winner`), or to the
-- player who answers for the loser.
local function victor_seat(ctx)
  return ctx.locals.winner
end

local function loser_seat(ctx)
  return peace.voice(ctx, ctx.locals.loser)
end

-- 5.124: the single victor chooses a group of Surrender Terms; it hands back the group.
peace.states.surrender_group = ask.question(function(ctx)
  local l = ctx.locals
  return string.format("5.124 %s surrenders to %s: choose a group of Surrender Terms", name(ctx, l.loser), name(ctx, l.winner))
end, function()
  local actions = {}
  for g, list in ipairs(peace.GROUPS) do
    actions[g] = { name = "group", arg = g, label = string.format("Group %d (%s, or %s)", g, peace.TERMS[list[1]], peace.TERMS[list[2]]) }
  end
  return actions
end, { group = ask.given }, victor_seat)

-- 5.124: the loser lets the victor have a term of the group it chose, or gives it a term of
-- each of the other two; it hands back whether it lets it have the group.
peace.states.surrender_answer = ask.question(function(ctx)
  local l = ctx.locals
  local others = other_groups(l.group)
  return string.format("5.124 %s chooses group %d: let it have one term of that group, or a term of each of groups %d and %d", name(ctx, l.winner), l.group, others[1], others[2])
end, function(ctx)
  local l = ctx.locals
  local others = other_groups(l.group)
  return {
    { name = "accept", label = string.format("Let %s choose in group %d", name(ctx, l.winner), l.group) },
    { name = "refuse", label = string.format("Give it groups %d and %d instead", others[1], others[2]) },
  }
end, { accept = ask.result(true), refuse = ask.result(false) }, loser_seat)

-- 5.124: the loser names the next victor to choose a term; it hands back that victor.
peace.states.surrender_order = ask.question(function(ctx)
  local l = ctx.locals
  return string.format("5.124 %s surrenders to %s: which of them chooses its term %s?", name(ctx, l.loser), powers.names(ctx, l.winners), #l.order == 0 and "first" or "next")
end, function(ctx)
  local l = ctx.locals
  local actions = {}
  for _, w in ipairs(l.winners) do
    if not util.contains(l.order, w) then
      actions[#actions + 1] = { name = "next", arg = w, label = name(ctx, w) }
    end
  end
  return actions
end, { next = ask.given }, loser_seat)

-- 5.124: a victor takes one term of the groups offered (`groups`; `text` says which); it
-- hands back the group and the term.
local term = ask.question(function(ctx)
  return ctx.locals.text
end, function(ctx)
  local l = ctx.locals
  local actions = {}
  for _, g in ipairs(l.groups) do
    for _, t in ipairs(peace.GROUPS[g]) do
      if payable(ctx, l.loser, t) then
        actions[#actions + 1] = { name = "term", arg = g .. ":" .. t, label = string.format("Group %d: %s", g, peace.TERMS[t]) }
      end
    end
  end
  return actions
end, {}, victor_seat)
peace.states.surrender_term = term

function term.term(ctx, arg)
  local g, t = arg:match("^(%d):(%a+)$")
  ctx:pop({ group = tonumber(g), term = t })
end

-- 5.128: the home provinces of the loser the victor evacuates, one at a time; it hands back
-- a province's Political Value, or nothing once there are no more.
peace.states.evacuation = ask.question(function(ctx)
  local l = ctx.locals
  return string.format("5.128 The home provinces of %s that %s evacuates, one at a time: each gives its Political Value in VP, 1 at least%s",
    name(ctx, l.loser), name(ctx, l.winner), l.evacuated > 0 and string.format(" (%d so far)", l.evacuated) or "")
end, function(ctx)
  return {
    { name = "province", min = 0, max = 20, label = "A home province evacuated: its Political Value" },
    { name = "evacuation_done", label = ctx.locals.evacuated > 0 and "No more home provinces evacuated" or "No home province evacuated" },
  }
end, { province = ask.given, evacuation_done = ask.done }, victor_seat)

return peace
