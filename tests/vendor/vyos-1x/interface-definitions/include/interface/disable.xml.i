<!-- include start from interface/disable.xml.i -->
<leafNode name="disable">
  <properties>
    <help>Administratively disable interface</help>
    <valueless/>
  </properties>
</leafNode>
<!-- include end -->
