-- Congress of Vienna: what a won issue does in the Government Phase (16.3), keyed by the
-- issue's kind. Who may fund it: an issue serves one power (a Recruitment or a Military
-- Operation its own nation's; British Financial Aid every power but Britain, paid by
-- Britain; Generalissimo Austria and Russia); won by another power it only denies it
-- (L437). Mandatory issues are paid first (L425-L429). What an issue gives that the
-- Playbook does not print is owner data: the table `issue_funding` ("issue/power": VP and
-- new units), asked the first time a power funds it.

local powers = include("rules/powers.lua")
local display = include("rules/display.lua")
local forces = include("rules/forces.lua")

local issues = {}

local OWN = {
  recruit_fr = "FR", recruit_ru = "RU", recruit_br = "BR", recruit_au = "AU",
  mil_op_fr = "FR", mil_op_ru = "RU", mil_op_br = "BR", mil_op_au = "AU",
}

local name, kind_of = powers.name, display.issue_of

function issues.is_military_operation(ctx, piece)
  local issue = kind_of(ctx, piece)
  return OWN[issue] ~= nil and string.find(issue, "^mil_op_") ~= nil
end

-- The power a Military Operation marker belongs to.
function issues.operation_owner(ctx, piece)
  return OWN[kind_of(ctx, piece)]
end

-- How `power`, which won `piece`, deals with it: "mandatory" (paid first), "optional",
-- "denied" (it serves another power: nothing to pay, L437), "aid" (British Financial Aid
-- won by another power: Britain pays at income), "operation" (another power's Military
-- Operation: its winner places it in the War Phase, free, L593).
function issues.classify(ctx, piece, power)
  local issue = kind_of(ctx, piece)
  local own = OWN[issue]
  if own then
    if own == power then
      return string.find(issue, "^mil_op_") and "mandatory" or "optional"
    end
    return string.find(issue, "^mil_op_") and "operation" or "denied"
  elseif issue == "mil_op_us" then
    return "denied"
  elseif issue == "fin_aid_br" then
    return power == "BR" and "denied" or "aid"
  elseif issue == "austria_at_war" then
    return power == "FR" and "denied" or "mandatory"
  elseif issue == "generalissimo" then
    return (power == "AU" or power == "RU") and "optional" or "denied"
  elseif issue == "lib_abs" or issue == "future_government" then
    return "optional"
  end
  return ctx.data.pieces[piece].props.mandatory == true and "mandatory" or "optional"
end

-- What the table `issue_funding` gives ({vp = n, <unit kind> = n}), in words.
local function describe_funding(ctx, entry)
  local parts = {}
  if entry.vp and entry.vp ~= 0 then
    parts[#parts + 1] = string.format("%+d VP", entry.vp)
  end
  for _, kind in ipairs(ctx.data.unit_kind_ids) do
    if entry[kind] and entry[kind] > 0 then
      parts[#parts + 1] = string.format("%d %s", entry[kind], ctx.data.unit_kinds[kind].name)
    end
  end
  return #parts > 0 and table.concat(parts, ", ") or "nothing"
end

local SPECIAL = {
  austria_at_war = "Austria goes to war",
  generalissimo = "the Generalissimo marker on an army (+3 in battle)",
  future_government = "the Future Government pawn one box",
  lib_abs = "the roll for its side's pawn",
  armistice = "the Armistice",
}

-- The effect of funding, in words, for a prompt (nothing that is not entered is read).
function issues.describe(ctx, piece, power)
  local issue = kind_of(ctx, piece)
  if SPECIAL[issue] then
    return SPECIAL[issue]
  elseif string.find(issue, "^mil_op_") then
    return "the Military Operation marker, placed in the War Phase"
  end
  local key = issue .. "/" .. power
  if ctx:known("table", "issue_funding", key) then
    return describe_funding(ctx, ctx.data.tables.issue_funding[key])
  end
  return "what it gives is asked when funded"
end

-- Whether the issue `piece` is a minor ally of `power`'s side (France's minors, or the
-- Allied ones); a side not entered yet is asked for.
function issues.minor_ally_of(ctx, piece, power)
  local props = ctx.data.pieces[piece].props
  if props.minor == nil then
    return false
  end
  return props.minor == (power == "FR" and "french_ally" or "allied")
end

-- Whether funding `piece` gives `power` a unit (owner data `issue_funding`, asked for if it
-- is not entered yet).
function issues.gives_unit(ctx, piece, power)
  local entry = ctx.data.tables.issue_funding[kind_of(ctx, piece) .. "/" .. power]
  for kind, n in pairs(entry) do
    if kind ~= "vp" and n > 0 then
      return true
    end
  end
  return false
end

-- New units from the force pool to the power's capital (as many as the pool holds).
function issues.recruit(ctx, power, kind, n, why)
  local pool = "pool." .. forces.owner_of_kind(ctx, kind)
  local have = ctx:units(pool, kind)
  local moved = math.min(have, n)
  if moved > 0 then
    ctx:move_units(pool, "reserve." .. power, kind, moved)
  end
  ctx:log(string.format("%s: %d %s to %s%s.", why, moved, ctx.data.unit_kinds[kind].name, ctx.data.boxes["reserve." .. power].name,
    moved < n and string.format(" (the force pool had %d of %d)", have, n) or ""))
end

-- The VP and units of `issue_funding[key]` for `power`.
local function apply_funding(ctx, key, power, why)
  local entry = ctx.data.tables.issue_funding[key]
  powers.score(ctx, power, entry.vp or 0, why)
  for _, kind in ipairs(ctx.data.unit_kind_ids) do
    if entry[kind] and entry[kind] > 0 then
      issues.recruit(ctx, power, kind, entry[kind], why)
    end
  end
end

-- The issues whose funding is a rule of its own, by kind.
local FUNDED = {}

-- Austria at War (L439, L527): removed for good; the Army of Bohemia moves from Vienna to
-- Silesia; the War Status marker to General War; Austria's hand loses its card for peace.
FUNDED.austria_at_war = function(ctx, piece)
  ctx.vars.austria_at_war_done = true
  ctx:remove_piece(piece)
  local _, at = ctx:space_of("block.bohemia")
  if at == "vienna" then
    ctx:place("block.bohemia", "front.a", "silesia")
  end
  ctx:place("marker.war_status", "war_status", "general_war")
  ctx.vars.war_status = "general"
  local size = ctx:add_counter("hand_size.AU", -ctx.data.tables.hand_size.austria_at_peace)
  ctx:log(string.format("Austria at War: removed from the game; the Army of Bohemia moves from Vienna to Silesia; the War Status is General War; Austria's Card Hand Size %d.",
    size))
end

-- The Armistice: the war's status becomes the Armistice, and the issues that wait for it
-- enter play.
FUNDED.armistice = function(ctx, piece)
  ctx:remove_piece(piece)
  ctx:place("marker.war_status", "war_status", "armistice")
  ctx.vars.war_status = "armistice"
  ctx.vars.armistice_turn = ctx:turn()
  ctx:log("The Armistice is in force: the issues that wait for it enter play.")
end

-- Generalissimo: its winner puts its marker on an Allied army as a headquarters (L480:
-- Austria's on the Army of Silesia). One marker is in play at a time (RULES-GAPS.md).
-- The question that puts `power`'s Generalissimo marker on an army (the locals of a
-- "decide" call; `issues.resume` takes its answer).
function issues.generalissimo_question(ctx, power)
  local options = {}
  for _, block in ipairs(forces.armies(ctx, function(id, p)
    return p.owner ~= "FR" and forces.active(ctx, id)
  end)) do
    options[#options + 1] = { arg = block, piece = block, label = ctx.data.pieces[block].name }
  end
  return { power = power, key = "generalissimo",
    text = "Generalissimo: put your headquarters marker on an army.", options = options }
end

FUNDED.generalissimo = function(ctx, _, power)
  ctx:call("decide", issues.generalissimo_question(ctx, power))
end

-- The Future Government of France: its winner moves the pawn one box, toward the box it
-- prefers (L441-L454); the box entered scores its VP.
FUNDED.future_government = function(ctx, _, power)
  local _, at = ctx:space_of("pawn.future_government")
  local options = {}
  for _, space in ipairs(ctx:neighbors("future_government", at)) do
    options[#options + 1] = { arg = space, place = "future_government", space = space,
      label = ctx.data.places.future_government.space[space].name }
  end
  ctx:call("decide", { power = power, key = "future_government",
    text = "The Future Government of France: move the pawn one box.", options = options })
end

FUNDED.lib_abs = function(ctx, _, power)
  ctx:log(string.format("%s will roll for its side's pawn once every power has spent.", name(ctx, power)))
end

local function operation(ctx, piece, power)
  ctx:log(string.format("%s goes to %s, to be placed in the War Phase.", ctx.data.pieces[piece].name,
    ctx.data.boxes["reserve." .. power].name))
end

-- Funds a won issue for `power` (already paid).
function issues.fund(ctx, piece, power)
  local issue = kind_of(ctx, piece)
  if FUNDED[issue] then
    return FUNDED[issue](ctx, piece, power)
  elseif string.find(issue, "^mil_op_") then
    return operation(ctx, piece, power)
  end
  apply_funding(ctx, issue .. "/" .. power, power, ctx.data.pieces[piece].name)
  if issue == "poland" then
    for _, bonus in ipairs(ctx.vars.government_bonuses or {}) do
      if bonus.card == "poniatowski" and bonus.power == power then
        issues.recruit(ctx, power, forces.KINDS[power][1], 1, "Poniatowski")
      end
    end
  elseif issue == "recruit_fr" then
    issues.us_recruit(ctx)
  elseif issue == "sweden_at_war" then
    ctx.vars.sweden_at_war_done = true
  elseif issue == "peace_congress" then
    local winner = (ctx.vars.diplomacy or {}).phase_winner
    if winner then
      apply_funding(ctx, "peace_congress/phase_winner", winner, "The Peace Congress, to the Diplomacy Phase's winner")
    end
  end
end

-- French Recruitment with the US Military Operation in the War of 1812 box: one of the new
-- French units is a US unit (L1332).
function issues.us_recruit(ctx)
  local place = ctx:space_of("issue.mil_op_us")
  if place == "front.g" and ctx:units("reserve.FR", "FR") > 0 and ctx:units("pool.FR", "US") > 0 then
    ctx:move_units("reserve.FR", "pool.FR", "FR", 1)
    ctx:move_units("pool.FR", "reserve.FR", "US", 1)
    ctx:log("French Recruitment with the US Military Operation in the War of 1812 box: one new unit is a US unit.")
  end
end

-- A decision an issue asked for has been taken.
function issues.resume(ctx, _, result)
  local power = result.power
  if result.key == "generalissimo" then
    local block = result.choice
    for _, other in ipairs({ "AU", "RU" }) do
      if other ~= power and ctx.vars.generalissimo and ctx.vars.generalissimo.power == other then
        ctx:place("generalissimo." .. other, "holding", "pool." .. other)
      end
    end
    local place, space = ctx:space_of(block)
    ctx:place("generalissimo." .. power, place, space)
    ctx.vars.generalissimo = { power = power, army = block }
    ctx:log(string.format("%s puts its Generalissimo marker on %s: +3 in its battles.", name(ctx, power),
      ctx.data.pieces[block].name))
  elseif result.key == "future_government" then
    ctx:place("pawn.future_government", "future_government", result.choice)
    ctx:log(string.format("%s moves the Future Government of France pawn to %s.", name(ctx, power),
      ctx.data.places.future_government.space[result.choice].name))
    issues.score_space(ctx, "future_government", result.choice)
  end
end

-- Scores a space's VP ({power = n}) as a pawn enters it.
function issues.score_space(ctx, place, space)
  local vp = ctx.data.places[place].space[space].props.vp
  local parts = {}
  for _, power in ipairs(powers.CLOCKWISE) do
    local n = vp[power]
    if n and n ~= 0 and not powers.out(ctx, power) then
      local total = ctx:add_counter("vp." .. power, n)
      parts[#parts + 1] = string.format("%s %+d (%d)", name(ctx, power), n, total)
    end
  end
  ctx:log(string.format("%s: %s.", ctx.data.places[place].space[space].name,
    #parts > 0 and table.concat(parts, ", ") or "no VP"))
end

-- The cards' Government-Phase bonuses from the Diplomacy Phase (rules/effects.lua), paid
-- at income (Poniatowski's is paid with Poland, in `issues.fund`). Friedrich Wilhelm III's printed
-- "1 VP unit" is read by the players (RULES-GAPS.md): `choice` is "vp", "unit" or "both".
function issues.government_bonus(ctx, bonus, choice)
  if bonus.card == "friedrich_wilhelm_iii" then
    if choice == "vp" or choice == "both" then
      powers.score(ctx, "RU", 1, "King Friedrich Wilhelm III")
    end
    if choice == "unit" or choice == "both" then
      issues.recruit(ctx, "RU", "PR", 1, "King Friedrich Wilhelm III")
    end
  end
end

return issues
