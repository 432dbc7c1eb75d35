-- La Guerre de l'Empereur: the relations between the powers, as plain data in `ctx.vars`
-- that every seat reads (2.7's displays): the wars (`wars`, by "A/B"), the alliances of
-- Player Countries (`league`: a PC to its alliance's number), the NPCs' allies
-- (`npc_ally`), the Enforced Peaces (`peace`, by "A/B": the last Combat Season they hold),
-- Free Passage (`passage`, by "grantor>user": its last Combat Season) and the declarations
-- of war a power owes its allies (`owed`: power to {target = the ally it is owed to}).

local util = include("@lib/util.lua")

local powers = {}

powers.BREAK_VP = 5

-- The Loyal Minor Powers a Remapping Europe event forms (3.42, 4.73): Poland by France
-- only; Portugal and Sweden upgraded by Britain only.
-- The Loyal Minor Powers (4.73) and what founding one is worth to its founder (4.73,
-- L1225-L1226: "immediately gains Victory Points"): Poland 5 VP a province, Warsaw and at
-- least one more of its five (4.731); Italy 15 (4.732, built at once); the Rhine 20, four
-- to eight provinces, 20 however many (4.733). Poland and the Rhine grow by their founder's
-- later Remapping events, 5 VP a province added (L1209-L1214). Portugal and Sweden (4.734)
-- are worth none the text gives.
powers.LOYAL = {
  { id = "poland", name = "the Grand Duchy of Warsaw", rule = "4.731", only = "FR", per_province = 5, provinces = { 2, 5 } },
  { id = "italy", name = "the Kingdom of Italy", rule = "4.732", vp = 15 },
  { id = "rhine", name = "the Rhine Confederation", rule = "4.733", vp = 20, provinces = { 4, 8 }, grows = 5 },
  { id = "portugal", name = "Portugal", rule = "4.734", only = "GB" },
  { id = "sweden", name = "Sweden", rule = "4.734", only = "GB" },
}

function powers.name(ctx, seat)
  return ctx.data.seats[seat].name
end

--- The names of `list`, joined ("France, Prussia and Russia").
function powers.names(ctx, list)
  return util.joined(util.map(list, function(p)
    return powers.name(ctx, p)
  end), "nobody")
end

--- The seat that decides for `power`: itself, or its PC ally or controller if an NPC.
function powers.voice(ctx, power)
  return ctx.vars.npc_ally[power] or ctx.vars.controller[power] or power
end

function powers.pair(a, b)
  return a < b and (a .. "/" .. b) or (b .. "/" .. a)
end

--- The Combat Season now, as a number (three a year): Enforced Peace and Free Passage
--- count in it.
function powers.season_index(ctx)
  local n = ({ Spring = 0, Summer = 1, Fall = 2 })[ctx.vars.season] or 2
  return ctx.vars.year * 3 + n
end

--- The Combat Season `n` in words ("Summer 1807").
function powers.season_name(n)
  return string.format("%s %d", ({ "Spring", "Summer", "Fall" })[n % 3 + 1], n // 3)
end

function powers.at_war(ctx, a, b)
  return ctx.vars.wars[powers.pair(a, b)] == true
end

--- The powers `power` is at war with, in the powers' order.
function powers.enemies(ctx, power)
  return util.filter(ctx.vars.powers, function(other)
    return powers.at_war(ctx, power, other)
  end)
end

--- The choices of the power a combat of `power`'s is fought against (a form's field): its
--- enemies, for a major power is fought only once war is declared on it (5.3).
function powers.enemy_choices(ctx, power)
  local choices = {}
  for _, enemy in ipairs(powers.enemies(ctx, power)) do
    choices[#choices + 1] = { enemy, powers.name(ctx, enemy) }
  end
  return choices
end

function powers.in_war(ctx, power)
  return #powers.enemies(ctx, power) > 0
end

--- Whether an Enforced Peace (5.14) holds between `a` and `b` now.
function powers.enforced(ctx, a, b)
  local last = ctx.vars.peace[powers.pair(a, b)]
  return last ~= nil and powers.season_index(ctx) <= last
end

--- The Player Countries among `list`, in its order.
function powers.players(ctx, list)
  return util.filter(list, function(power)
    return ctx.vars.pcs_set[power]
  end)
end

--- The Player Countries allied with Player Country `pc` (not `pc` itself).
function powers.pc_allies(ctx, pc)
  local league = ctx.vars.league[pc]
  if not league then
    return {}
  end
  return util.filter(ctx.vars.pcs, function(other)
    return other ~= pc and ctx.vars.league[other] == league
  end)
end

--- The NPCs allied with Player Country `pc`.
function powers.npc_allies(ctx, pc)
  return util.filter(ctx.vars.powers, function(npc)
    return ctx.vars.npc_ally[npc] == pc
  end)
end

--- The whole alliance `power` belongs to (5.3): its Player Countries and their NPC allies,
--- in the powers' order; a power alone is an alliance of one.
function powers.alliance(ctx, power)
  local head = ctx.vars.npc_ally[power] or power
  if not ctx.vars.pcs_set[head] then
    return { power }
  end
  local pcs = powers.pc_allies(ctx, head)
  pcs[#pcs + 1] = head
  return util.filter(ctx.vars.powers, function(p)
    return util.contains(pcs, p) or util.contains(pcs, ctx.vars.npc_ally[p])
  end)
end

--- The other members of `power`'s alliance, in the powers' order.
function powers.allies(ctx, power)
  return util.filter(powers.alliance(ctx, power), function(member)
    return member ~= power
  end)
end

--- Whether `a` and `b` are allies (of one alliance).
function powers.allied(ctx, a, b)
  return util.contains(powers.allies(ctx, a), b)
end

--- Whether `power` or one of its allies is at war with `npc`: then it may not gain it
--- (4.4, 4.71, 5.32).
function powers.hostile(ctx, power, npc)
  return util.count(powers.alliance(ctx, power), function(member)
    return powers.at_war(ctx, member, npc)
  end) > 0
end

function powers.start_war(ctx, a, b)
  ctx.vars.wars[powers.pair(a, b)] = true
  -- A Peace Party ends only after a whole Combat Season at peace (4.741).
  for _, p in ipairs({ a, b }) do
    if ctx.vars.peace_party[p] then
      ctx.vars.peace_party[p].quiet = false
    end
  end
end

--- Ends the war between `a` and `b`; with `enforced`, an Enforced Peace holds for the next
--- three Combat Seasons (5.14).
function powers.end_war(ctx, a, b, enforced)
  ctx.vars.wars[powers.pair(a, b)] = nil
  if enforced then
    ctx.vars.peace[powers.pair(a, b)] = powers.season_index(ctx) + 3
  end
end

--- `pc` owes a declaration of war (5.21, 5.32, 4.4) on every enemy of `ally`'s that it is not
--- at war with; a target it has an Enforced Peace with is left out (5.14 forbids it).
function powers.owe(ctx, pc, ally, enemies)
  for _, target in ipairs(enemies) do
    if target ~= pc and not powers.at_war(ctx, pc, target) and not powers.allied(ctx, pc, target) then
      ctx.vars.owed[pc] = ctx.vars.owed[pc] or {}
      ctx.vars.owed[pc][target] = ally
    end
  end
end

--- `pc` gains NPC `npc` as its ally (4.4, 4.71, 5.32): the NPC's chit leaves the cup (it
--- moves with its ally), unless `pc` has had its turn this Season (5.321); `pc` owes war on
--- the NPC's enemies.
function powers.gain_npc(ctx, pc, npc)
  ctx.vars.npc_ally[npc] = pc
  ctx.vars.npc[npc] = "allied"
  ctx.vars.controller[npc] = nil
  local chit = "chit." .. npc
  if ctx:card_zone(chit) == "drawn" then
    -- It has had its turn this Season, and moves no further (5.321).
  elseif ctx:card_zone("chit." .. pc) == "drawn" then
    ctx:move_card(chit, "cup")
  elseif ctx:card_zone(chit) == "cup" then
    ctx:move_card(chit, "chits", "bottom")
  end
  local enemies = powers.enemies(ctx, npc)
  powers.owe(ctx, pc, npc, enemies)
end

--- Breaks `pc`'s alliance with its NPC `npc` (5.23): the NPC becomes Controlled (run by
--- `pc`) if it is at war, else inactive; a Controlled NPC that has not had a turn this
--- Season gets its chit in the cup.
function powers.drop_npc(ctx, pc, npc)
  ctx.vars.npc_ally[npc] = nil
  if powers.in_war(ctx, npc) then
    ctx.vars.npc[npc] = "controlled"
    ctx.vars.controller[npc] = pc
    local chit = "chit." .. npc
    if ctx:card_zone(chit) ~= "drawn" and ctx.vars.season ~= "Winterphase" then
      ctx:move_card(chit, "cup")
    end
  else
    ctx.vars.npc[npc] = "inactive"
  end
  powers.forgive(ctx, pc, npc)
end

--- A Controlled NPC at war with nobody any more becomes inactive (5.23).
function powers.settle_npc(ctx, npc)
  if ctx.vars.npc[npc] == "controlled" and not powers.in_war(ctx, npc) then
    ctx.vars.npc[npc], ctx.vars.controller[npc] = "inactive", nil
    if ctx:card_zone("chit." .. npc) == "cup" then
      ctx:move_card("chit." .. npc, "chits", "bottom")
    end
  end
end

--- `pc` leaves its alliance of Player Countries (5.22, 5.24); an alliance of one is no more.
function powers.leave(ctx, pc)
  local allies = powers.pc_allies(ctx, pc)
  ctx.vars.league[pc] = nil
  if #allies == 1 then
    ctx.vars.league[allies[1]] = nil
  end
  -- What it owed its allies, and they it, lapses.
  for _, ally in ipairs(allies) do
    powers.forgive(ctx, pc, ally)
    powers.forgive(ctx, ally, pc)
  end
end

--- What `debtor` owes `ally` lapses.
function powers.forgive(ctx, debtor, ally)
  local owed = ctx.vars.owed[debtor] or {}
  local gone = {}
  for target, from in pairs(owed) do
    if from == ally then
      gone[#gone + 1] = target
    end
  end
  for _, target in ipairs(gone) do
    ctx.vars.owed[debtor][target] = nil
  end
end

return powers
