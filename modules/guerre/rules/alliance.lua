-- La Guerre de l'Empereur: the Alliance Step (5.2-5.24). Two unallied Player Countries
-- form an alliance, an unallied one joins an alliance, or two alliances merge, when every
-- member agrees; any one other player may try to cancel it (4.62); each member then owes
-- a declaration of war, in its next War Declaration Step, on every enemy of its new
-- allies. An alliance that would set two powers with an Enforced Peace at war is refused
-- (5.14). A player leaves his alliance, or breaks with an allied NPC, for 5 VP (5.23,
-- 5.24); an NPC so left becomes Controlled if at war, else inactive.

local cancel = include("rules/cancel.lua")
local powers = include("rules/powers.lua")
local util = include("@lib/util.lua")
local ask = include("rules/ask.lua")

local alliance = {}

local name = powers.name

-- The alliance `a` and `b` would make: the members of both, in the powers' order.
local function joined(ctx, a, b)
  local set = {}
  for _, side in ipairs({ a, b }) do
    for _, m in ipairs(powers.alliance(ctx, side)) do
      set[m] = true
    end
  end
  return util.filter(ctx.vars.powers, function(p)
    return set[p]
  end)
end

--- Why `a` may not ally with `b` now (nil: it may): members at war with one another, or a
--- member with an Enforced Peace with another member's enemy (5.14).
function alliance.refusal(ctx, a, b)
  local members = joined(ctx, a, b)
  for _, m in ipairs(members) do
    for _, other in ipairs(members) do
      if powers.at_war(ctx, m, other) then
        return string.format("%s and %s are at war", name(ctx, m), name(ctx, other))
      end
      for _, enemy in ipairs(powers.enemies(ctx, other)) do
        if powers.enforced(ctx, m, enemy) then
          return string.format("%s has an Enforced Peace with %s, %s's enemy (5.14)", name(ctx, m), name(ctx, enemy), name(ctx, other))
        end
      end
    end
  end
  return nil
end

--- The Alliance Step's actions open to Player Country `power`.
function alliance.actions(ctx, power)
  local actions = {}
  for _, other in ipairs(ctx.vars.pcs) do
    if other ~= power and not powers.allied(ctx, power, other) and not alliance.refusal(ctx, power, other)
      and ctx.vars.cancelled["ally:" .. powers.pair(power, other)] ~= ctx:turn() then
      local how = ctx.vars.league[power] and ctx.vars.league[other] and "Merge our alliance with %s's (5.21)"
        or ctx.vars.league[other] and "Join %s's alliance (5.21)"
        or ctx.vars.league[power] and "Invite %s into our alliance (5.21)"
        or "Form an alliance with %s (5.21)"
      actions[#actions + 1] = { name = "ally", arg = other, label = string.format(how, name(ctx, other)) }
    end
  end
  if ctx.vars.league[power] then
    actions[#actions + 1] = {
      name = "leave",
      label = string.format("Leave the alliance with %s (5 VP, 5.24)", powers.names(ctx, powers.pc_allies(ctx, power))),
      confirm = "You pay 5 VP, and your units in your former allies' provinces are repatriated (5.221).",
    }
  end
  for _, npc in ipairs(powers.npc_allies(ctx, power)) do
    actions[#actions + 1] = {
      name = "break_npc",
      arg = npc,
      label = string.format("Break the alliance with %s (5 VP, 5.23)", name(ctx, npc)),
      confirm = string.format("You pay 5 VP; %s becomes a Controlled NPC if at war, else inactive.", name(ctx, npc)),
    }
  end
  return actions
end

alliance.states = {}

--- `power` proposes an alliance with `other`: every other Player Country of the alliance
--- to be agrees, then the cancel window; the caller's `on_resume` gets nothing back.
function alliance.propose(ctx, power, other)
  local seats = util.filter(powers.players(ctx, joined(ctx, power, other)), function(m)
    return m ~= power
  end)
  ctx:call("alliance_consent", { power = power, other = other, seats = seats, n = 1 })
end

local consent = ask.question(function(ctx)
  local l = ctx.locals
  local members = joined(ctx, l.power, l.other)
  return string.format("5.21 %s proposes an alliance of %s: does %s agree?", name(ctx, l.power), powers.names(ctx, members), name(ctx, ask.in_turn(ctx)))
end, {
  { name = "agree", label = "Agree" },
  { name = "refuse", label = "Refuse" },
}, {}, ask.in_turn)
alliance.states.alliance_consent = consent

-- Forms the alliance: one number for all its Player Countries; each owes war on the
-- others' enemies.
local function form(ctx, l)
  local members = joined(ctx, l.power, l.other)
  local id = ctx.vars.league[l.power] or ctx.vars.league[l.other]
  if not id then
    ctx.vars.leagues = (ctx.vars.leagues or 0) + 1
    id = ctx.vars.leagues
  end
  local pcs = powers.players(ctx, members)
  for _, m in ipairs(pcs) do
    ctx.vars.league[m] = id
  end
  ctx:log(string.format("The alliance of %s is formed (5.21).", powers.names(ctx, members)))
  for _, m in ipairs(pcs) do
    for _, other in ipairs(members) do
      if other ~= m then
        powers.owe(ctx, m, other, powers.enemies(ctx, other))
      end
    end
    local owed = {}
    for target in pairs(ctx.vars.owed[m] or {}) do
      owed[#owed + 1] = target
    end
    if #owed > 0 then
      table.sort(owed)
      ctx:log(string.format("%s must declare war on %s in its next War Declaration Step (5.21).", name(ctx, m), powers.names(ctx, owed)))
    end
  end
  ctx:pop(nil)
end

function consent.agree(ctx)
  if ask.pass_on(ctx) then
    return
  end
  local l = ctx.locals
  local pcs = powers.players(ctx, joined(ctx, l.power, l.other))
  if not cancel.open(ctx, string.format("%s declare an alliance", powers.names(ctx, pcs)), pcs) then
    form(ctx, l)
  end
end

function consent.refuse(ctx)
  ctx:log(string.format("%s refuses the alliance %s proposes.", name(ctx, ask.in_turn(ctx)), name(ctx, ctx.locals.power)))
  ctx:pop(nil)
end

function consent.on_resume(ctx, result)
  local l = ctx.locals
  if result.cancelled then
    ctx.vars.cancelled["ally:" .. powers.pair(l.power, l.other)] = ctx:turn()
    ctx:pop(nil)
    return
  end
  form(ctx, l)
end

--- `power` leaves its alliance of Player Countries (5.24): 5 VP, however many allies.
function alliance.leave(ctx, power)
  local allies = powers.pc_allies(ctx, power)
  powers.leave(ctx, power)
  local vp = ctx:add_counter("vp." .. power, -powers.BREAK_VP)
  ctx:log(string.format("%s leaves its alliance with %s and pays %d VP (%d VP) (5.24); its units in their provinces are repatriated at the table (5.221).",
    name(ctx, power), powers.names(ctx, allies), powers.BREAK_VP, vp))
end

--- `power` breaks its alliance with its NPC `npc` of its own will (5.23): 5 VP.
function alliance.break_npc(ctx, power, npc)
  powers.drop_npc(ctx, power, npc)
  local vp = ctx:add_counter("vp." .. power, -powers.BREAK_VP)
  ctx:log(string.format("%s breaks its alliance with %s and pays %d VP (%d VP) (5.23): %s is %s.",
    name(ctx, power), name(ctx, npc), powers.BREAK_VP, vp, name(ctx, npc),
    ctx.vars.npc[npc] == "controlled" and "a Controlled NPC, run by " .. name(ctx, power) or "inactive"))
end

return alliance
