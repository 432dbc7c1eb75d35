-- La Guerre de l'Empereur: the Peace Step (5.1-5.14). A Negotiated Peace offered by a
-- power to an enemy (a Controlled NPC must accept; a Player Country or an Allied NPC's
-- player answers), with its cancel window, after which the other allies may make their
-- own offer to the same enemy; those at peace while their allies fight on leave the
-- alliance and pay 5 VP (5.22). A Surrender to every enemy at once: 5 VP lost, the wars
-- over, an Enforced Peace for three Combat Seasons (5.14) and the Surrender Terms (5.124):
-- one victor chooses a group and the loser lets him have it or gives him both of the
-- others; several victors choose a group each, in the order the loser gives, three at
-- most. Provinces, units and repatriation are moved on the map; the module keeps the VP,
-- the gold, the Free Passage and the Enforced Peace.

local util = include("@lib/util.lua")
local cancel = include("rules/cancel.lua")
local powers = include("rules/powers.lua")

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

local negotiation = {}
peace.states.negotiation = negotiation

-- The allies of `from` (Player Countries) still at war with `to`, who may make their own
-- offer (5.11).
local function also(ctx, l)
  local list = {}
  for _, ally in ipairs(powers.pc_allies(ctx, l.from)) do
    if powers.at_war(ctx, ally, l.to) and not l.asked[ally] then
      list[#list + 1] = ally
    end
  end
  return list
end

-- The offer's chain is over: those who made peace while an ally of theirs fights on leave
-- the alliance and pay 5 VP (5.11, 5.22).
local function settle(ctx, l)
  for _, pair in ipairs(l.made) do
    local power, other = pair[1], pair[2]
    local fighting = {}
    for _, ally in ipairs(powers.pc_allies(ctx, power)) do
      if powers.at_war(ctx, ally, other) then
        fighting[#fighting + 1] = ally
      end
    end
    if #fighting > 0 and ctx.vars.league[power] then
      powers.leave(ctx, power)
      local vp = ctx:add_counter("vp." .. power, -powers.BREAK_VP)
      ctx:log(string.format("%s is at peace with %s while %s fights on: it leaves the alliance and pays %d VP (%d VP) (5.22).",
        name(ctx, power), name(ctx, other), powers.names(ctx, fighting), powers.BREAK_VP, vp))
    end
  end
  ctx:pop(nil)
end

local function next_offer(ctx)
  local l = ctx.locals
  l.asked = l.asked or {}
  l.asked[l.from] = true
  local left = also(ctx, l)
  if #left > 0 then
    l.stage, l.ally = "also", left[1]
    return
  end
  settle(ctx, l)
end

local function made(ctx)
  local l = ctx.locals
  powers.end_war(ctx, l.from, l.to, true)
  powers.settle_npc(ctx, l.from)
  powers.settle_npc(ctx, l.to)
  l.made[#l.made + 1] = { l.from, l.to }
  l.made[#l.made + 1] = { l.to, l.from }
  ctx:log(string.format("%s and %s make peace: an Enforced Peace holds to the end of %s (5.14).",
    name(ctx, l.from), name(ctx, l.to), powers.season_name(ctx.vars.peace[powers.pair(l.from, l.to)])))
  next_offer(ctx)
end

function negotiation.on_enter(ctx)
  local l = ctx.locals
  ctx:log(string.format("%s offers %s a Negotiated Peace (5.11).", name(ctx, l.from), name(ctx, l.to)))
  l.stage = "answer"
end

function negotiation.prompt(ctx)
  local l = ctx.locals
  if l.stage == "also" then
    return {
      seat = l.ally,
      text = string.format("5.11 %s has offered %s peace: %s may make its own offer to %s", name(ctx, l.from), name(ctx, l.to), name(ctx, l.ally), name(ctx, l.to)),
      actions = {
        { name = "offer", label = string.format("Offer %s a Negotiated Peace", name(ctx, l.to)) },
        { name = "no_offer", label = "No offer" },
      },
    }
  end
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

function negotiation.accept(ctx)
  local l = ctx.locals
  local words = string.format("%s and %s make peace", name(ctx, l.from), name(ctx, l.to))
  if not cancel.open(ctx, words, { peace.voice(ctx, l.from), peace.voice(ctx, l.to) }) then
    made(ctx)
  end
end

function negotiation.on_resume(ctx, result)
  local l = ctx.locals
  if result.cancelled then
    ctx.vars.cancelled["peace:" .. powers.pair(l.from, l.to)] = ctx:turn()
    next_offer(ctx)
    return
  end
  made(ctx)
end

function negotiation.reject(ctx)
  local l = ctx.locals
  ctx:log(string.format("%s rejects the offer: the war goes on.", name(ctx, l.to)))
  next_offer(ctx)
end

function negotiation.offer(ctx)
  local l = ctx.locals
  l.from, l.stage = l.ally, "answer"
  ctx:log(string.format("%s offers %s a Negotiated Peace as well (5.11).", name(ctx, l.from), name(ctx, l.to)))
end

function negotiation.no_offer(ctx)
  ctx.locals.asked[ctx.locals.ally] = true
  next_offer(ctx)
end

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
  local winners = {}
  for _, enemy in ipairs(enemies) do
    if ctx.vars.pcs_set[enemy] then
      winners[#winners + 1] = enemy
    end
  end
  if #winners == 0 then
    return
  end
  ctx:call("surrender_terms", { loser = loser, winners = winners, stage = #winners == 1 and "group" or "order", order = {}, used = {}, k = 1 })
end

-- The Surrender Terms (5.124), then each winner's VP for the home provinces it evacuates
-- (5.128).
local terms = {}
peace.states.surrender_terms = terms

-- Whether the loser can pay a term: the gold only if it has 10 (5.124: else the units).
local function payable(ctx, loser, term)
  return term ~= "gold" or ctx:counter("gold." .. loser) >= peace.TERM_GOLD
end

-- The term choices of the groups `groups`, as actions.
local function term_actions(ctx, l, groups)
  local actions = {}
  for _, g in ipairs(groups) do
    for _, term in ipairs(peace.GROUPS[g]) do
      if payable(ctx, l.loser, term) then
        actions[#actions + 1] = { name = "term", arg = g .. ":" .. term, label = string.format("Group %d: %s", g, peace.TERMS[term]) }
      end
    end
  end
  return actions
end

function terms.prompt(ctx)
  local l = ctx.locals
  local loser = name(ctx, l.loser)
  if l.stage == "group" then
    local actions = {}
    for g, list in ipairs(peace.GROUPS) do
      actions[g] = { name = "group", arg = g, label = string.format("Group %d (%s, or %s)", g, peace.TERMS[list[1]], peace.TERMS[list[2]]) }
    end
    return { seat = l.winners[1], text = string.format("5.124 %s surrenders to %s: choose a group of Surrender Terms", loser, name(ctx, l.winners[1])), actions = actions }
  elseif l.stage == "answer" then
    local others = {}
    for g = 1, 3 do
      if g ~= l.group then
        others[#others + 1] = g
      end
    end
    return {
      seat = peace.voice(ctx, l.loser),
      text = string.format("5.124 %s chooses group %d: let it have one term of that group, or a term of each of groups %d and %d", name(ctx, l.winners[1]), l.group, others[1], others[2]),
      actions = {
        { name = "accept", label = string.format("Let %s choose in group %d", name(ctx, l.winners[1]), l.group) },
        { name = "refuse", label = string.format("Give it groups %d and %d instead", others[1], others[2]) },
      },
    }
  elseif l.stage == "order" then
    local actions = {}
    for _, w in ipairs(l.winners) do
      local placed = false
      for _, o in ipairs(l.order) do
        placed = placed or o == w
      end
      if not placed then
        actions[#actions + 1] = { name = "next", arg = w, label = name(ctx, w) }
      end
    end
    return {
      seat = peace.voice(ctx, l.loser),
      text = string.format("5.124 %s surrenders to %s: which of them chooses its term %s?", loser, powers.names(ctx, l.winners), #l.order == 0 and "first" or "next"),
      actions = actions,
    }
  elseif l.stage == "pick" then
    local groups = {}
    for g = 1, 3 do
      if not util.contains(l.used, g) then
        groups[#groups + 1] = g
      end
    end
    return {
      seat = l.order[l.k],
      text = string.format("5.124 %s's term from %s: one term from a group not yet chosen", name(ctx, l.order[l.k]), loser),
      actions = term_actions(ctx, l, groups),
    }
  elseif l.stage == "term" then
    return {
      seat = l.winners[1],
      text = string.format("5.124 %s's term from %s in group %d", name(ctx, l.winners[1]), loser, l.groups[1]),
      actions = term_actions(ctx, l, { l.groups[1] }),
    }
  end
  return {
    seat = l.winners[l.k],
    text = string.format("5.128 The home provinces of %s that %s evacuates, one at a time: each gives its Political Value in VP, 1 at least%s",
      loser, name(ctx, l.winners[l.k]), (l.evacuated or 0) > 0 and string.format(" (%d so far)", l.evacuated) or ""),
    actions = {
      { name = "province", min = 0, max = 20, label = "A home province evacuated: its Political Value" },
      { name = "evacuation_done", label = (l.evacuated or 0) > 0 and "No more home provinces evacuated" or "No home province evacuated" },
    },
  }
end

function terms.group(ctx, g)
  local l = ctx.locals
  l.group, l.stage = g, "answer"
  ctx:log(string.format("%s chooses group %d of the Surrender Terms.", name(ctx, l.winners[1]), g))
end

function terms.accept(ctx)
  local l = ctx.locals
  l.groups, l.stage = { l.group }, "term"
  ctx:log(string.format("%s lets %s have a term of group %d.", name(ctx, l.loser), name(ctx, l.winners[1]), l.group))
end

function terms.refuse(ctx)
  local l = ctx.locals
  l.groups = {}
  for g = 1, 3 do
    if g ~= l.group then
      l.groups[#l.groups + 1] = g
    end
  end
  l.stage = "term"
  ctx:log(string.format("%s refuses: %s has a term of each of groups %d and %d.", name(ctx, l.loser), name(ctx, l.winners[1]), l.groups[1], l.groups[2]))
end

function terms.next(ctx, winner)
  local l = ctx.locals
  l.order[#l.order + 1] = winner
  if #l.order == #l.winners then
    local beyond = {}
    for i = 4, #l.order do
      beyond[#beyond + 1] = l.order[i]
    end
    if #beyond > 0 then
      ctx:log(string.format("%s gain%s no Surrender Term: three groups only (5.124).", powers.names(ctx, beyond), #beyond == 1 and "s" or ""))
    end
    l.stage, l.k = "pick", 1
  end
end

-- The term's effect: the VP and gold change hands; Free Passage is kept for a year; a
-- province or the units are moved at the table.
local function apply(ctx, l, winner, term)
  local loser = l.loser
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

function terms.term(ctx, arg)
  local l = ctx.locals
  local group, term = arg:match("^(%d):(%a+)$")
  group = tonumber(group)
  if l.stage == "pick" then
    apply(ctx, l, l.order[l.k], term)
    -- A list of the groups chosen, in order (a set keyed by group number would have holes:
    -- plain data keeps lists whole).
    l.used[#l.used + 1] = group
    if l.k < math.min(3, #l.order) then
      l.k = l.k + 1
    else
      l.stage, l.k = "evacuation", 1
    end
    return
  end
  apply(ctx, l, l.winners[1], term)
  table.remove(l.groups, 1)
  if #l.groups == 0 then
    l.stage, l.k = "evacuation", 1
  end
end

-- 5.128 (L1567-L1574): a home province evacuated gives its Political Value in VP, and at
-- least 1 (the text's example: a province of Political Value 0 gives 1).
function terms.province(ctx, value)
  local l = ctx.locals
  local winner = l.winners[l.k]
  local vp = math.max(value, 1)
  l.evacuated = (l.evacuated or 0) + 1
  ctx:add_counter("vp." .. winner, vp)
  ctx:log(string.format("%s evacuates a home province of %s, of Political Value %d: %d VP (5.128%s).", name(ctx, winner),
    name(ctx, l.loser), value, vp, value < 1 and ", 1 at least" or ""))
end

function terms.evacuation_done(ctx)
  local l = ctx.locals
  l.evacuated = nil
  if l.k < #l.winners then
    l.k = l.k + 1
    return
  end
  ctx:pop(nil)
end

return peace
